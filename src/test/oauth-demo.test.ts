import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from '../demo/testing'
import type { ServerStatus } from '../shared/model/server'
import { describeWithKeyring, uniqueServerId } from '../main/core/secrets/testing/keyring'
import { startCore, type LiveCore } from '../main/core/services/testing/live-core'

/**
 * OAuth against the demo's OAuth-protected rag-tools-v1 server over real HTTP and SSE, with
 * tokens in the real Secret Service. The sign-in runs the real flow: loopback redirect,
 * authorization code + PKCE, with RAG_CONSOLE_OAUTH_OPENER=fetch in place of a browser.
 */

const OPENER = { RAG_CONSOLE_OAUTH_OPENER: 'fetch' }

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const signInRequired = (status: ServerStatus): boolean =>
  status.state === 'action_required' && status.signInRequired === true

describeWithKeyring('OAuth sign-in in the pool, against the demo OAuth server', () => {
  let demo: DemoProcess
  let live: LiveCore | undefined
  let server: string

  beforeAll(async () => {
    demo = await startDemo(['oauth', '--port', '0', '--approve-as', 'bob@example.com'])
  })
  afterAll(() => demo?.stop())
  afterEach(async () => {
    if (live) {
      await live.core.auth.logout(server).catch(() => {})
      await live.core.secrets.keychain.delete(server, 'oauth.client')
      await live.close()
    }
    live = undefined
  })

  for (const transport of ['http', 'sse'] as const) {
    it(`${transport}: a 401 with an OAuth challenge means sign-in required; signing in connects it`, async () => {
      server = uniqueServerId(`oauth-${transport}`)
      const origin = new URL(demo.url).origin
      const url = transport === 'http' ? `${origin}/mcp` : `${origin}/sse`
      live = await startCore({ [server]: { transport, url } }, { env: OPENER })
      const { core } = live
      await until(() => signInRequired(core.pool.status(server)), 'sign-in required')
      expect(core.pool.status(server)).toMatchObject({
        reason: expect.stringContaining(`rag-console auth login --server ${server}`),
      })
      expect((await core.auth.status(server))[0]).toMatchObject({ state: 'sign_in_required' })
      const card = async () => (await core.services.servers.list()).find((s) => s.id === server)
      expect((await card())?.oauth).toMatchObject({ state: 'sign_in_required' })

      const changes: string[] = []
      core.events.on('auth:changed', (status) => changes.push(status.state))
      const status = await core.auth.login(server)
      expect(status).toMatchObject({
        serverId: server,
        state: 'signed_in',
        account: 'bob@example.com',
        scopes: ['rag:read'],
        authorizationServer: `${origin}/`,
      })
      expect(status.expiresAt).toBeGreaterThan(Date.now())
      expect(changes).toEqual(['signing_in', 'signing_in', 'signed_in'])
      expect(core.pool.status(server).state).toBe('ready')
      expect((await card())?.oauth).toMatchObject({
        state: 'signed_in',
        account: 'bob@example.com',
      })
      const tools = await core.pool.tools(server)
      expect(tools.tools.map((tool) => tool.name)).toContain('rag_discover_resources')
      const stored = await core.secrets.keychain.get(server, 'oauth.tokens')
      expect(JSON.parse(stored!).tokens.access_token).toMatch(/^at_/)
    })
  }

  it('logout deletes the tokens and the server needs signing in again', async () => {
    server = uniqueServerId('oauth-logout')
    live = await startCore({ [server]: { url: demo.url } }, { env: OPENER })
    const { core } = live
    await until(() => signInRequired(core.pool.status(server)), 'sign-in required')
    await core.auth.login(server)
    expect(core.pool.status(server).state).toBe('ready')
    const status = await core.auth.logout(server)
    expect(status.state).toBe('sign_in_required')
    expect(await core.secrets.keychain.get(server, 'oauth.tokens')).toBeNull()
    expect(signInRequired(core.pool.status(server))).toBe(true)
  })

  it('reports a failed sign-in as state error and keeps the listener from lingering', async () => {
    server = uniqueServerId('oauth-denied')
    // Without the test opener nobody approves: cancel the sign-in that waits.
    live = await startCore({ [server]: { url: demo.url } }, { env: {} })
    const { core } = live
    const urls: string[] = []
    const login = core.auth.login(server, { opener: (url) => void urls.push(url.href) })
    await until(() => urls.length === 1, 'the authorization URL')
    const url = new URL(urls[0]!)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('resource')).toBe(demo.url)
    const redirect = url.searchParams.get('redirect_uri')!
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)
    expect((await core.auth.status(server))[0]).toMatchObject({
      state: 'signing_in',
      authorizationUrl: url.href,
    })
    await core.auth.cancel(server)
    expect(await login).toMatchObject({ state: 'error', error: { code: 'cancelled' } })
    await expect(fetch(`${redirect}?code=x&state=y`)).rejects.toThrow()
  })
})

describeWithKeyring('OAuth token refresh and step-up, against the demo OAuth server', () => {
  let live: LiveCore | undefined
  let demo: DemoProcess | undefined
  let server: string

  afterEach(async () => {
    if (live) {
      await live.core.auth.logout(server).catch(() => {})
      await live.core.secrets.keychain.delete(server, 'oauth.client')
      await live.close()
    }
    await demo?.stop()
    live = undefined
    demo = undefined
  })

  it('refreshes an access token that is about to expire before sending it', async () => {
    demo = await startDemo(['oauth', '--port', '0', '--approve-as', 'bob', '--token-ttl', '30'])
    server = uniqueServerId('oauth-refresh')
    live = await startCore({ [server]: { url: demo.url } }, { env: OPENER })
    const { core } = live
    await until(() => signInRequired(core.pool.status(server)), 'sign-in required')
    await core.auth.login(server)
    const before = JSON.parse((await core.secrets.keychain.get(server, 'oauth.tokens'))!)
    await core.pool.tools(server, { refresh: true })
    const after = JSON.parse((await core.secrets.keychain.get(server, 'oauth.tokens'))!)
    expect(after.tokens.access_token).not.toBe(before.tokens.access_token)
    expect(after.tokens.refresh_token).not.toBe(before.tokens.refresh_token)
    expect(core.pool.status(server).state).toBe('ready')
  })

  it('a call refused for scope needs a sign-in with more scope; where one can sign in, it steps up', async () => {
    demo = await startDemo([
      'oauth',
      '--port',
      '0',
      '--approve-as',
      'bob',
      '--require-scope',
      'rag:search',
    ])
    server = uniqueServerId('oauth-step-up')
    live = await startCore({ [server]: { url: demo.url } }, { env: OPENER })
    const { core } = live
    await until(() => signInRequired(core.pool.status(server)), 'sign-in required')
    await core.auth.login(server)
    const call = () =>
      core.pool.session(server).then((session) =>
        session.callTool(
          'rag_discover_resources',
          { username: 'bob@example.com' },
          {
            operation: 'discover',
          },
        ),
      )
    await expect(call()).rejects.toMatchObject({
      code: 'action_required',
      details: { signInRequired: true, scope: 'rag:read rag:search' },
    })
    const scopes: (string | undefined)[] = []
    core.auth.signIn = async (id, request) => {
      scopes.push(request.scope)
      await core.auth.login(id, { ...request, reconnect: false })
    }
    const result = await call()
    expect(result.isError).toBeFalsy()
    expect(scopes).toEqual(['rag:read rag:search'])
    expect((await core.auth.status(server))[0]?.scopes).toEqual(['rag:read', 'rag:search'])
  })
})

describe('servers without OAuth', () => {
  it('keep their plain 401 refusal: an API-key server is not asked to sign in', async () => {
    const ragbox = await startDemo(['ragbox', '--port', '0'])
    const live = await startCore(
      { vault: { url: ragbox.url, headers: { 'X-API-Key': '${env:KEY}' } } },
      { env: { KEY: 'rbx_live_wrong' } },
    )
    try {
      await until(() => live.core.pool.status('vault').state === 'action_required', 'refusal')
      const status = live.core.pool.status('vault')
      expect(status).toMatchObject({ lastError: { code: 'unauthorized', origin: 'server' } })
      expect(status).not.toHaveProperty('signInRequired')
      expect((await live.core.auth.status('vault'))[0]?.state).toBe('none')
    } finally {
      await live.close()
      await ragbox.stop()
    }
  })
})
