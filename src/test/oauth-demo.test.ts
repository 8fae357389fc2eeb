import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startDemo, type DemoProcess } from './support/demo/programs'
import type { ServerStatus } from '#shared/model/server'
import type { Core } from '#core/core'
import { describeWithKeyring, uniqueServerId } from './support/secrets/keyring'
import { startCore, type LiveCore } from './support/core/live-core'

/**
 * OAuth against the demo's OAuth-protected rag-tools-v1 server over real HTTP and SSE, with
 * tokens in the real Secret Service. The sign-in runs the real flow: loopback redirect,
 * authorization code + PKCE, with RAG_CONSOLE_OAUTH_OPENER=fetch in place of a browser.
 */

const OPENER = { RAG_CONSOLE_OAUTH_OPENER: 'fetch' }

const until = (check: () => boolean | Promise<boolean>, what: string): Promise<void> =>
  vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${what}`)
    },
    { timeout: 10_000, interval: 25 },
  )

/** Passes a token request on to the demo's token endpoint, noting its grant type. */
function forwardToken(
  req: IncomingMessage,
  res: ServerResponse,
  demoOrigin: string,
  grants: string[],
): void {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (chunk: string) => (body += chunk))
  req.on('end', () => {
    grants.push(new URLSearchParams(body).get('grant_type') ?? '')
    void fetch(`${demoOrigin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    }).then(async (answer) => {
      res.writeHead(answer.status, { 'content-type': 'application/json' })
      res.end(await answer.text())
    })
  })
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

  it('sends token requests to the configured token endpoint instead of the discovered one', async () => {
    // A pass-through in front of the demo's token endpoint, counting what it forwards.
    const forwarded: string[] = []
    const proxy = createServer((req, res) => {
      forwardToken(req, res, new URL(demo.url).origin, forwarded)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    try {
      server = uniqueServerId('oauth-endpoint')
      const tokenEndpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/token`
      live = await startCore(
        { [server]: { url: demo.url, oauth: { tokenEndpoint } } },
        { env: OPENER },
      )
      expect(await live.core.auth.login(server)).toMatchObject({ state: 'signed_in' })
      expect(forwarded).toEqual(['authorization_code'])
    } finally {
      proxy.closeAllConnections()
      proxy.close()
    }
  })

  it('takes the authorization server from authorizationServerUrl, not from the resource metadata', async () => {
    // An authorization server of our own: the demo's metadata under its own issuer, its token
    // endpoint a pass-through to the demo's. The resource's metadata still names the demo.
    const demoOrigin = new URL(demo.url).origin
    const metadata = (await (
      await fetch(`${demoOrigin}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>
    const tokenRequests: string[] = []
    const issuer = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`
      if (req.method === 'GET' && req.url === '/.well-known/oauth-authorization-server') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ ...metadata, issuer: origin, token_endpoint: `${origin}/token` }))
        return
      }
      if (req.method !== 'POST' || req.url !== '/token') {
        res.writeHead(404).end()
        return
      }
      forwardToken(req, res, demoOrigin, tokenRequests)
    })
    await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve))
    try {
      server = uniqueServerId('oauth-issuer')
      const authorizationServerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`
      live = await startCore(
        { [server]: { url: demo.url, oauth: { authorizationServerUrl } } },
        { env: OPENER },
      )
      expect(await live.core.auth.login(server)).toMatchObject({ state: 'signed_in' })
      expect(tokenRequests).toEqual(['authorization_code'])
    } finally {
      issuer.closeAllConnections()
      issuer.close()
    }
  })

  it('keeps tokens per acting profile for a per-user server, and finds them after a restart', async () => {
    server = uniqueServerId('oauth-profile')
    const registry = { [server]: { url: demo.url, oauth: { perProfile: true } } }
    live = await startCore(registry, { env: OPENER })
    const { settings } = live.core
    settings.saveProfile({ id: 'ann', name: 'Ann', userId: 'ann', sessionTags: [], groups: [] })
    settings.saveProfile({ id: 'ben', name: 'Ben', userId: 'ben', sessionTags: [], groups: [] })
    settings.setActive('ann')
    expect(await live.core.auth.login(server)).toMatchObject({
      state: 'signed_in',
      profileId: 'ann',
    })
    expect(await live.core.secrets.keychain.get(server, 'oauth.ann.tokens')).not.toBeNull()
    settings.setActive('ben')
    expect((await live.core.auth.status(server))[0]).toMatchObject({
      state: 'sign_in_required',
      profileId: 'ben',
    })
    settings.setActive('ann')
    // A new console on the same data folder and keychain: still signed in.
    await live.core.dispose()
    const again = await startCore(registry, { env: OPENER, dir: live.dir })
    try {
      expect((await again.core.auth.status(server))[0]).toMatchObject({
        state: 'signed_in',
        profileId: 'ann',
      })
      await until(() => again.core.pool.status(server).state === 'ready', 'ready')
      await again.core.auth.logout(server)
    } finally {
      await again.close()
    }
    await live.close()
    live = undefined
  })

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

  /** A demo OAuth server started with `demoArgs` and a console signed in to it. */
  async function signedIn(label: string, demoArgs: string[]): Promise<Core> {
    demo = await startDemo(['oauth', '--port', '0', '--approve-as', 'bob', ...demoArgs])
    server = uniqueServerId(label)
    live = await startCore({ [server]: { url: demo.url } }, { env: OPENER })
    const { core } = live
    await until(() => signInRequired(core.pool.status(server)), 'sign-in required')
    await core.auth.login(server)
    return core
  }

  it('refreshes an access token that is about to expire before sending it', async () => {
    // Tokens live 4 s: refreshed once half of that is over.
    const core = await signedIn('oauth-refresh', ['--token-ttl', '4'])
    const before = JSON.parse((await core.secrets.keychain.get(server, 'oauth.tokens'))!)
    await until(() => before.expiresAt - Date.now() < 2_000, 'half the lifetime over')
    await core.pool.tools(server, { refresh: true })
    const after = JSON.parse((await core.secrets.keychain.get(server, 'oauth.tokens'))!)
    expect(after.tokens.access_token).not.toBe(before.tokens.access_token)
    expect(after.tokens.refresh_token).not.toBe(before.tokens.refresh_token)
    expect(core.pool.status(server).state).toBe('ready')
  })

  it('keeps a short-lived token until half its lifetime is over, not refreshing at every request', async () => {
    // Each refresh rotates the refresh token: needless ones race other processes and are lost
    // when a process exits during one.
    const core = await signedIn('oauth-short', ['--token-ttl', '30'])
    const before = JSON.parse((await core.secrets.keychain.get(server, 'oauth.tokens'))!)
    for (let i = 0; i < 3; i++) await core.pool.tools(server, { refresh: true })
    const after = JSON.parse((await core.secrets.keychain.get(server, 'oauth.tokens'))!)
    expect(after.tokens).toEqual(before.tokens)
  })

  it('keeps the tokens another process stored when its own refresh is refused for a rotated token', async () => {
    const core = await signedIn('oauth-race', [])
    const { keychain } = core.secrets
    const config = core.registry.server(server)!
    const challenge = { status: 401, header: 'Bearer error="invalid_token"' }
    const provider = core.auth.provider(config, config.url!, () => challenge)!
    const read = await provider.tokens()
    // Meanwhile another process refreshes with the same refresh token and stores the result.
    const { client_id: clientId } = JSON.parse((await keychain.get(server, 'oauth.client'))!)
    const rotated = await fetch(`${new URL(demo!.url).origin}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: read!.refresh_token!,
        client_id: clientId,
      }),
    })
    const theirs = { tokens: await rotated.json(), expiresAt: Date.now() + 3_600_000 }
    await keychain.set(server, 'oauth.tokens', JSON.stringify(theirs))
    // This provider's refresh of the old token is refused: the SDK asks to drop the tokens.
    await provider.invalidateCredentials!('tokens')
    expect(JSON.parse((await keychain.get(server, 'oauth.tokens'))!)).toEqual(theirs)
    // Refused for the token it holds itself: gone, and the next sign-in is asked for again.
    await provider.tokens()
    await provider.invalidateCredentials!('tokens')
    expect(await keychain.get(server, 'oauth.tokens')).toBeNull()
    await expect(core.pool.tools(server, { refresh: true })).rejects.toMatchObject({
      code: 'action_required',
      message: expect.stringContaining('needs you to sign in again'),
    })
  })

  it('answers a 401 on a token it thought good with a refresh, then goes on', async () => {
    const core = await signedIn('oauth-401', [])
    // The server no longer knows the access token (revoked, restarted): only the refresh is good.
    const stored = JSON.parse((await core.secrets.keychain.get(server, 'oauth.tokens'))!)
    stored.tokens.access_token = 'at_revoked'
    await core.secrets.keychain.set(server, 'oauth.tokens', JSON.stringify(stored))
    const tools = await core.pool.tools(server, { refresh: true })
    expect(tools.tools.length).toBeGreaterThan(0)
    const after = JSON.parse((await core.secrets.keychain.get(server, 'oauth.tokens'))!)
    expect(after.tokens.access_token).not.toBe('at_revoked')
    expect(core.pool.status(server).state).toBe('ready')
  })

  it('every call refused for scope asks for that sign-in, not only the first on a connection', async () => {
    // The SDK tries a step-up once per challenge until a request succeeds; calls side by side,
    // or one after another before anything succeeds, must not turn into "the key lacks the
    // rights" (which sends the person to Secrets instead of to a sign-in).
    const core = await signedIn('oauth-step-up-again', ['--require-scope', 'rag:search'])
    const session = await core.pool.session(server)
    const call = () =>
      session.callTool(
        'rag_discover_resources',
        { username: 'bob@example.com' },
        { operation: 'discover' },
      )
    const outcomes = await Promise.allSettled([call(), call(), call()])
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected')
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        code: 'action_required',
        details: { signInRequired: true, scope: 'rag:read rag:search' },
      })
    }
  })

  it('a call refused for scope needs a sign-in with more scope; where one can sign in, it steps up', async () => {
    const core = await signedIn('oauth-step-up', ['--require-scope', 'rag:search'])
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
