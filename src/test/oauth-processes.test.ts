import { rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from './support/demo/programs'
import { startMonitor } from './support/cli/monitor-process'
import { cliHome, json, runCli, writeRegistry, type CliRun } from './support/cli/run-cli'
import { KeychainStore } from '#core/secrets/keychain-store'
import { describeWithKeyring, uniqueServerId } from './support/secrets/keyring'
import { SettingsStore } from '#core/services/settings'
import {
  startConformanceServer,
  type ConformanceServer,
} from './support/servers/conformance-server'
import { SAFETY_NET_MS } from './support/process/limits'

/**
 * A sign-in outlives the process that made it: each `rag-console` run below is a new process on
 * the same data folder and the same (real) keychain, as a person's terminal commands are. The
 * OAuth servers are the demo's (with refresh tokens) and a conformance-suite scenario server
 * that no one here wrote (no refresh tokens).
 */

const OPENER = { RAG_CONSOLE_OAUTH_OPENER: 'fetch' }
/** Each test runs up to five CLI processes one after the other (and may wait for an expiry). */
const PROCESSES_MS = 90_000
const ENTRIES = ['tokens', 'client', 'verifier'] as const

interface StoredTokens {
  tokens: { access_token: string; refresh_token?: string }
  expiresAt: number
}

describeWithKeyring('OAuth across processes: what one process signed in to, the next uses', () => {
  const keychain = new KeychainStore()
  const used: string[] = []
  /** Access tokens live an hour; redirect URIs must match exactly (no RFC 8252 any-port). */
  let strict: DemoProcess
  /** Access tokens live 4 s. */
  let brief: DemoProcess
  let thirdParty: ConformanceServer
  let home: string

  /** A server id of this test's own, cleaned from the keychain afterwards. */
  const serverId = (name: string): string => {
    const id = uniqueServerId(name)
    used.push(id)
    return id
  }
  const cli = (config: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> =>
    runCli(['--config', config, ...args], home, { env })
  const stored = async (id: string, entry = 'oauth.tokens'): Promise<StoredTokens | undefined> => {
    const text = await keychain.get(id, entry)
    return text === null ? undefined : (JSON.parse(text) as StoredTokens)
  }
  const registry = (id: string, entry: Record<string, unknown>): string =>
    writeRegistry(home, { [id]: entry }, `${id}.json`)
  /** Waits until the server's stored access token has expired. */
  const expired = async (id: string): Promise<void> => {
    const { expiresAt } = (await stored(id))!
    await expect.poll(() => Date.now() > expiresAt, { timeout: SAFETY_NET_MS }).toBe(true)
  }

  beforeAll(async () => {
    ;[strict, brief, thirdParty] = await Promise.all([
      startDemo(['oauth', '--port', '0', '--approve-as', 'carol', '--exact-redirect-uris']),
      startDemo(['oauth', '--port', '0', '--approve-as', 'dave', '--token-ttl', '4']),
      startConformanceServer(),
    ])
    home = cliHome()
  }, PROCESSES_MS)

  afterAll(async () => {
    for (const id of used) {
      for (const entry of ENTRIES) await keychain.delete(id, `oauth.${entry}`).catch(() => {})
      for (const profile of ['ann', 'ben']) {
        for (const entry of ENTRIES) {
          await keychain.delete(id, `oauth.${profile}.${entry}`).catch(() => {})
        }
      }
    }
    await Promise.all([strict?.stop(), brief?.stop(), thirdParty?.stop()])
    if (home) rmSync(home, { recursive: true, force: true })
  })

  for (const [form, oauth] of [
    ['an entry without an oauth block (OAuth found from the 401)', undefined],
    ['an entry with "oauth": {}', {}],
  ] as const) {
    it(
      `CLI login, then new processes use the stored tokens as they are: ${form}`,
      async () => {
        const id = serverId('proc-login')
        const config = registry(id, { url: strict.url, ...(oauth ? { oauth } : {}) })
        const login = await cli(config, ['auth', 'login', '--server', id], OPENER)
        expect(login.code, login.stderr).toBe(0)
        expect(login.stdout).toContain(`signed in to ${id} as carol@example.com`)
        const signedIn = await stored(id)
        expect(signedIn?.tokens.access_token).toMatch(/^at_/)
        expect(await keychain.get(id, 'oauth.client')).not.toBeNull()

        const status = await cli(config, ['--json', 'auth', 'status', '--server', id])
        expect(json(status)).toMatchObject({
          servers: [{ server: id, state: 'signed_in', account: 'carol@example.com' }],
        })
        // No opener: nobody could sign in here. The stored token is what makes it work.
        const tools = await cli(config, ['--json', 'tools', '--server', id])
        expect(tools.code, tools.stdout + tools.stderr).toBe(0)
        expect(tools.stdout).toContain('rag_get_raw_results')
        // Used as stored: a valid token is not refreshed (which would lose the id token's name).
        expect((await stored(id))?.tokens).toEqual(signedIn?.tokens)
        const again = await cli(config, ['--json', 'auth', 'status', '--server', id])
        expect(json(again)).toMatchObject({ servers: [{ account: 'carol@example.com' }] })
      },
      PROCESSES_MS,
    )
  }

  it(
    'CLI login, then `monitor` connects the server and probes it (a server with no refresh tokens)',
    async () => {
      const id = serverId('proc-monitor')
      const config = registry(id, { url: thirdParty.url })
      expect((await cli(config, ['auth', 'login', '--server', id], OPENER)).code).toBe(0)
      const monitor = await startMonitor(['--config', config, '--interval', '300ms'], home)
      try {
        await monitor.line((l) => l.event === 'status' && l.server === id && l.status === 'ready')
        expect(await monitor.line((l) => l.event === 'probe' && l.server === id)).toMatchObject({
          ok: true,
        })
      } finally {
        expect(await monitor.stop()).toBe(0)
      }
    },
    PROCESSES_MS,
  )

  it(
    'CLI login, then a new process calls: against a conformance-suite server no one here wrote',
    async () => {
      const id = serverId('proc-third-party')
      const config = registry(id, { url: thirdParty.url })
      const login = await cli(config, ['auth', 'login', '--server', id], OPENER)
      expect(login.code, login.stderr).toBe(0)
      // Its tokens come without a refresh token: only the stored access token can work.
      expect((await stored(id))?.tokens.refresh_token).toBeUndefined()
      const tools = await cli(config, ['--json', 'tools', '--server', id])
      expect(tools.code, tools.stdout + tools.stderr).toBe(0)
      expect(tools.stdout).toContain('test-tool')
    },
    PROCESSES_MS,
  )

  it(
    'a sign-in that fails exits non-zero with the cause, and stores no tokens',
    async () => {
      // The protected-resource metadata names 127.0.0.1; the registry says localhost (and, for
      // the conformance server, the other way round): the SDK refuses the resource.
      const cases = [
        { id: serverId('proc-mismatch'), url: strict.url.replace('127.0.0.1', 'localhost') },
        { id: serverId('proc-mismatch-3p'), url: thirdParty.url.replace('localhost', '127.0.0.1') },
      ]
      for (const { id, url } of cases) {
        const config = registry(id, { url })
        const login = await cli(config, ['auth', 'login', '--server', id], OPENER)
        expect(login.code, `${id}: ${login.stdout}`).not.toBe(0)
        expect(login.stdout).not.toContain('signed in')
        expect(login.stderr).toMatch(new RegExp(`sign-in to server ${id} failed: .*does not match`))
        // What to do: use the URL the server names.
        expect(login.stderr).toContain(`: write that as its "url" in rag-mcp.json`)
        expect(await stored(id)).toBeUndefined()
        const json = await cli(config, ['--json', 'auth', 'login', '--server', id], OPENER)
        expect(json.code).not.toBe(0)
        expect(JSON.parse(json.stdout)).toMatchObject({ error: { message: /does not match/ } })
      }
    },
    PROCESSES_MS,
  )

  for (const [form, oauth] of [
    ['no oauth block', undefined],
    ['"oauth": {}', {}],
  ] as const) {
    it(
      `an expiring access token is refreshed in a new process, without a person (${form})`,
      async () => {
        const id = serverId('proc-refresh')
        const config = registry(id, { url: brief.url, ...(oauth ? { oauth } : {}) })
        expect((await cli(config, ['auth', 'login', '--server', id], OPENER)).code).toBe(0)
        const first = (await stored(id))!.tokens
        await expired(id)
        const tools = await cli(config, ['--json', 'tools', '--server', id])
        expect(tools.code, tools.stdout + tools.stderr).toBe(0)
        const second = (await stored(id))!.tokens
        expect(second.access_token).not.toBe(first.access_token)
        // The demo rotates refresh tokens: the new one was kept for the next process.
        expect(second.refresh_token).not.toBe(first.refresh_token)
        const next = await cli(config, ['--json', 'tools', '--server', id])
        expect(next.code, next.stdout + next.stderr).toBe(0)
      },
      PROCESSES_MS,
    )
  }

  it(
    'a revoked refresh token ends in one clear "sign in again"',
    async () => {
      const id = serverId('proc-revoked')
      const config = registry(id, { url: brief.url })
      expect((await cli(config, ['auth', 'login', '--server', id], OPENER)).code).toBe(0)
      const { refresh_token: refresh } = (await stored(id))!.tokens
      const client = JSON.parse((await keychain.get(id, 'oauth.client'))!) as { client_id: string }
      const revoked = await fetch(`${new URL(brief.url).origin}/revoke`, {
        method: 'POST',
        body: new URLSearchParams({ token: refresh!, client_id: client.client_id }),
      })
      expect(revoked.status).toBe(200)
      await expired(id)

      const tools = await cli(config, ['--json', 'tools', '--server', id])
      expect(tools.code).toBe(4)
      const { error } = json<{ error: { code: string; message: string } }>(tools)
      expect(error.code).toBe('action_required')
      expect(error.message).toMatch(new RegExp(`server ${id} needs you to sign in again`))
      expect(error.message).toContain(`rag-console auth login --server ${id}`)
      expect(tools.stderr).not.toMatch(/sign in again/)
      const status = await cli(config, ['--json', 'auth', 'status', '--server', id])
      expect(json(status)).toMatchObject({ servers: [{ state: 'sign_in_required' }] })
      expect((await cli(config, ['auth', 'login', '--server', id], OPENER)).code).toBe(0)
    },
    PROCESSES_MS,
  )

  it(
    'signs in again on a new loopback port, and logout forgets the registered client',
    async () => {
      const id = serverId('proc-again')
      const config = registry(id, { url: strict.url })
      expect((await cli(config, ['auth', 'login', '--server', id], OPENER)).code).toBe(0)
      const first = JSON.parse((await keychain.get(id, 'oauth.client'))!) as {
        client_id: string
        redirect_uris: string[]
      }
      const port = Number(new URL(first.redirect_uris[0]!).port)
      // Another program holds the port of the first sign-in: the next one must take another,
      // which this authorization server only accepts from a client registered with it.
      const holder = await hold(port)
      try {
        const again = await cli(config, ['auth', 'login', '--server', id], OPENER)
        expect(again.code, again.stdout + again.stderr).toBe(0)
      } finally {
        await release(holder)
      }
      const second = JSON.parse((await keychain.get(id, 'oauth.client'))!) as { client_id: string }
      expect(second.client_id).not.toBe(first.client_id)
      // Port free again: the next sign-in takes the registered port and keeps the client.
      const third = await cli(config, ['auth', 'login', '--server', id], OPENER)
      expect(third.code, third.stdout + third.stderr).toBe(0)

      const logout = await cli(config, ['auth', 'logout', '--server', id])
      expect(logout.code).toBe(0)
      expect(await keychain.get(id, 'oauth.tokens')).toBeNull()
      expect(await keychain.get(id, 'oauth.client')).toBeNull()
      expect((await cli(config, ['auth', 'login', '--server', id], OPENER)).code).toBe(0)
      const fresh = JSON.parse((await keychain.get(id, 'oauth.client'))!) as { client_id: string }
      expect(fresh.client_id).not.toBe(second.client_id)
    },
    PROCESSES_MS,
  )

  it(
    'keeps a per-user server signed in per acting profile, across processes',
    async () => {
      const id = serverId('proc-profile')
      const config = registry(id, { url: strict.url, oauth: { perProfile: true } })
      const settings = new SettingsStore(join(home, 'settings.json'))
      for (const name of ['ann', 'ben']) {
        settings.saveProfile({ id: name, name, userId: name, sessionTags: [], groups: [] })
      }
      settings.setActive('ann')
      const login = await cli(config, ['auth', 'login', '--server', id], OPENER)
      expect(login.code, login.stderr).toBe(0)
      expect(await keychain.get(id, 'oauth.ann.tokens')).not.toBeNull()
      expect((await cli(config, ['--json', 'tools', '--server', id])).code).toBe(0)

      new SettingsStore(join(home, 'settings.json')).setActive('ben')
      const asBen = await cli(config, ['--json', 'tools', '--server', id])
      expect(asBen.code).toBe(4)
      expect(json(asBen)).toMatchObject({ error: { code: 'action_required' } })
      new SettingsStore(join(home, 'settings.json')).setActive('ann')
      expect((await cli(config, ['--json', 'tools', '--server', id])).code).toBe(0)
    },
    PROCESSES_MS,
  )
})

/** Listens on a loopback port, as another program would. */
function hold(port: number): Promise<Server> {
  const server = createServer()
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

function release(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}
