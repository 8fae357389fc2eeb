import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { OAUTH_DEMO_CLIENT } from '#demo/keys'
import { OWN_DOC_HOST, startDemo, type DemoProcess } from './support/demo/programs'
import { createHandlers, type Handlers } from '#core/api/handlers'
import { dispatch } from '#core/api/dispatch'
import { createCore, type Core } from '#core/core'
import { REDACTED } from '#core/secrets/redactor'
import { describeWithKeyring, uniqueServerId } from './support/secrets/keyring'
import { cliHome, runCli, writeRegistry, type CliRun } from './support/cli/run-cli'
import { whenState } from './support/core/live'
import { SAFETY_NET_MS } from './support/process/limits'

/**
 * The canary: unique secrets stored in the real keychain and really used (rag-search's Bearer
 * key, an extra header, a server that echoes its credentials back in errors, the OAuth demo's
 * tokens and client secret, and a key in an OAuth server's URL), then every CLI output, IPC
 * response, event payload, file under the data folder and request to an authorization server
 * is searched for them.
 */

const CANARY = `canary-${randomBytes(20).toString('hex')}`
const EXTRA = `canary-extra-${randomBytes(20).toString('hex')}`
/** A key in the query of an OAuth server's URL: for that server, not its authorization server. */
const URL_KEY = `canary-urlkey-${randomBytes(20).toString('hex')}`
/** A stored secret that JSON has to escape. */
const QUOTED = `canary"quoted\\${randomBytes(16).toString('hex')}`
/** Written in plain text in rag-mcp.json: an API key header and a password in a URL. */
const PLAIN = `canary-plain-${randomBytes(16).toString('hex')}`
const PASSWORD = `canary-pass-${randomBytes(16).toString('hex')}`
/** Written in plain text as stdio arguments: `--api-key <key>` and `--token=<token>`. */
const ARG_KEY = `canary-argkey-${randomBytes(16).toString('hex')}`
const ARG_TOKEN = `canary-argtok-${randomBytes(16).toString('hex')}`
const escaped = (text: string): string => JSON.stringify(text).slice(1, -1)
/** What may never show: the values and a prefix long enough to betray a cut-off value. */
const stored = [
  CANARY,
  EXTRA,
  URL_KEY,
  URL_KEY.slice(0, 30),
  CANARY.slice(0, 24),
  EXTRA.slice(0, 30),
  QUOTED,
  escaped(QUOTED),
  escaped(escaped(QUOTED)),
  // The middle of the base64 of "Bearer <key>", as a server may quote the header encoded.
  Buffer.from(`Bearer ${CANARY}`).toString('base64').slice(12, 48),
]
/** Only the config file itself, and its text in the editor, may hold these. */
const written = [PLAIN, PASSWORD, ARG_KEY, ARG_TOKEN, PLAIN.slice(0, 24), PASSWORD.slice(0, 24)]
const needles = [...stored, ...written]
/** OAuth access and refresh tokens seen in the keychain, and the client secret stored there. */
const tokens: string[] = [OAUTH_DEMO_CLIENT.clientSecret]

const RS = uniqueServerId('canary-rs')
const BOB = {
  id: 'bob',
  name: 'Bob (engineering)',
  userId: 'bob@example.com',
  sessionTags: ['department:engineering'],
  groups: ['users', 'engineering'],
}
const BOB_FLAGS = ['--user', BOB.userId, '--tags', JSON.stringify(BOB.sessionTags)]
const ECHO = uniqueServerId('canary-echo')
const LEAKY = uniqueServerId('canary-leaky')
const USERINFO = uniqueServerId('canary-userinfo')
const ARGS = uniqueServerId('canary-args')
const OAUTH = uniqueServerId('canary-oauth')
const URL_KEYED = uniqueServerId('canary-oauth-url-key')
/** Sign-ins approve at once, as the demo's `--approve-as` does for a person. */
const FETCH_OPENER = { RAG_CONSOLE_OAUTH_OPENER: 'fetch' }
/** A stdio "server" that prints the token it was given on stderr and dies, as broken ones do. */
const LEAKY_SCRIPT =
  "process.stderr.write('starting with token ' + process.env.TOKEN + '\\n'); process.exit(3)"
/** The same, for a server given its credentials as command-line arguments. */
const ARGS_SCRIPT =
  "process.stderr.write('starting with ' + process.argv.slice(1).join(' ') + '\\n'); process.exit(3)"

const HANG = Symbol('hang')

/** A request a server got: where to, and everything it carried. */
interface Recorded {
  path: string
  text: string
}

/**
 * A reverse proxy in front of the OAuth demo that records every request (URL, headers, body),
 * and serves the demo as a server that names neither its metadata in its challenges (clients
 * then discover it at the well-known URL, RFC 9728) nor a fixed resource: its metadata's
 * `resource` echoes the URL it was asked at, as some servers build it. Whatever a client puts
 * in that URL then travels to the authorization server as the resource indicator.
 */
async function startRecordingProxy(target: string): Promise<{ server: Server; url: string }> {
  const recorded: Recorded[] = []
  const targetOrigin = new URL(target).origin
  let origin = ''
  const rewrite = (text: string): string => text.replaceAll(targetOrigin, origin)
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', origin)
      recorded.push({
        path: url.pathname,
        text: `${url.href}\n${JSON.stringify(request.headers)}\n${body}`,
      })
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) {
          headers.set(name, value.replaceAll(origin, targetOrigin))
        }
      }
      void fetch(`${targetOrigin}${url.pathname}${url.search}`, {
        method: request.method ?? 'GET',
        headers,
        redirect: 'manual',
        ...(body && request.method !== 'GET'
          ? { body: body.replaceAll(origin, targetOrigin) }
          : {}),
      }).then(async (answer) => {
        let text = rewrite(await answer.text())
        if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
          const metadata = JSON.parse(text) as { resource: string }
          metadata.resource = `${origin}/mcp${url.search}`
          text = JSON.stringify(metadata)
        }
        const out: Record<string, string> = {}
        answer.headers.forEach((value, name) => {
          if (name === 'www-authenticate')
            out[name] = value.replace(/,?\s*resource_metadata="[^"]*"/, '')
          else if (
            !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(
              name,
            )
          ) {
            out[name] = rewrite(value)
          }
        })
        response.writeHead(answer.status, out).end(text)
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { server: Object.assign(server, { recorded }), url: `${origin}/mcp` }
}

/**
 * A streamable-HTTP MCP server with one rag-search tool whose every call fails with an error
 * quoting the credentials it received, as careless servers do (or hangs, for "hang").
 */
function startEchoServer(): Promise<Server> {
  const reply = (id: unknown, body: object): string =>
    JSON.stringify({ jsonrpc: '2.0', id, ...body })
  const answer = (
    request: IncomingMessage,
    message: { id?: unknown; method: string; params?: { protocolVersion?: string } },
  ): string | typeof HANG | undefined => {
    switch (message.method) {
      case 'initialize':
        return reply(message.id, {
          result: {
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'echo-credentials', version: '1.0.0' },
          },
        })
      case 'tools/list':
        return reply(message.id, {
          result: {
            tools: [
              {
                name: 'rag_search',
                inputSchema: { type: 'object', properties: { search_phrases: { type: 'array' } } },
              },
              { name: 'echo_headers', inputSchema: { type: 'object' } },
            ],
          },
        })
      case 'tools/call':
        // A search for "hang" never gets an answer: the console's timeout has to end it.
        if (JSON.stringify(message.params).includes('hang')) return HANG
        // A debugging tool that answers with every header it got, as JSON text and encoded.
        if (JSON.stringify(message.params).includes('echo_headers')) {
          const { headers } = request
          const encoded = Buffer.from(String(headers.authorization)).toString('base64')
          const text = JSON.stringify({ headers, encoded })
          return reply(message.id, { result: { content: [{ type: 'text', text }] } })
        }
        return reply(message.id, {
          error: {
            code: -32602,
            message: `token rejected: Authorization=${request.headers.authorization} x-canary-extra=${request.headers['x-canary-extra']} quoted=${request.headers['x-canary-quoted']} key=${request.headers['x-api-key']} for ${request.headers['x-user-id']}`,
          },
        })
      default:
        return message.id === undefined ? undefined : reply(message.id, { result: {} })
    }
  }
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end()
      return
    }
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      const text = answer(request, JSON.parse(body) as { method: string })
      if (text === HANG) return
      if (text === undefined) response.writeHead(202).end()
      else response.writeHead(200, { 'content-type': 'application/json' }).end(text)
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** Every file under a folder, as text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesUnder(path)
    return [{ path, text: readFileSync(path, 'latin1') }]
  })
}

const leaks = (text: string, allowed: string[] = needles): string[] =>
  [...allowed, ...tokens].filter((needle) => text.includes(needle))

/**
 * The signatures of the signed links in a text (`sig`, `signature`, `token` query values):
 * whoever holds such a link opens the document, so they may be shown but never kept on disk.
 */
const signaturesIn = (text: string): string[] =>
  [...text.matchAll(/[?&](?:sig|signature|token)=([A-Za-z0-9_%-]{16,})/g)].map((m) => m[1]!)

describeWithKeyring('secret canary: a stored key never leaves the keychain', () => {
  let ragSearch: DemoProcess
  let oauthDemo: DemoProcess
  let echo: Server
  let proxy: Server & { recorded?: Recorded[] }
  let home: string
  let config: string
  let registry: Record<string, Record<string, unknown>>
  let core: Core
  let handlers: Handlers
  const events: unknown[] = []
  const responses: { channel: string; response: unknown }[] = []
  const cliRuns: { args: string[]; run: CliRun }[] = []

  const ipc = async (channel: string, request?: unknown): Promise<unknown> => {
    const response = await dispatch(handlers, channel, request)
    responses.push({ channel, response })
    return response
  }
  const cli = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> => {
    const run = await runCli(['--config', config, ...BOB_FLAGS, ...args], home, { env })
    cliRuns.push({ args, run })
    return run
  }
  /** Runs the CLI with each of these argument lists, three at a time. */
  const cliEach = async (runs: string[][]): Promise<void> => {
    const queue = [...runs]
    const worker = async (): Promise<void> => {
      for (let args = queue.shift(); args; args = queue.shift()) await cli(args)
    }
    await Promise.all([worker(), worker(), worker()])
  }
  /** Adds the OAuth tokens now in the keychain to what may never show. */
  const rememberTokens = async (): Promise<void> => {
    const stored = await core.secrets.keychain.get(OAUTH, 'oauth.tokens')
    const { access_token: access, refresh_token: refresh } = JSON.parse(stored!).tokens
    for (const token of [access, refresh]) if (!tokens.includes(token)) tokens.push(token)
  }

  beforeAll(async () => {
    ragSearch = await startDemo(['rag-search', '--port', '0', '--api-key', CANARY, ...OWN_DOC_HOST])
    echo = await startEchoServer()
    oauthDemo = await startDemo(['oauth', '--port', '0', '--approve-as', 'bob@example.com'])
    const proxied = await startRecordingProxy(oauthDemo.url)
    proxy = proxied.server
    home = cliHome()
    const headers = {
      Authorization: 'Bearer ${keychain:apiKey}',
      'X-Canary-Extra': '${keychain:extra}',
    }
    const echoAt = `127.0.0.1:${(echo.address() as AddressInfo).port}/mcp`
    registry = {
      [RS]: { url: ragSearch.url, headers, dialect: 'rag-search', timeoutMs: SAFETY_NET_MS },
      [ECHO]: {
        url: `http://${echoAt}`,
        headers: { ...headers, 'X-Canary-Quoted': '${keychain:quoted}', 'X-API-Key': PLAIN },
        dialect: 'rag-search',
        timeoutMs: SAFETY_NET_MS,
      },
      [USERINFO]: {
        url: `http://svc:${PASSWORD}@${echoAt}`,
        dialect: 'rag-search',
        timeoutMs: SAFETY_NET_MS,
      },
      [LEAKY]: {
        command: process.execPath,
        args: ['-e', LEAKY_SCRIPT],
        env: { TOKEN: '${keychain:apiKey}' },
        timeoutMs: SAFETY_NET_MS,
      },
      [ARGS]: {
        command: process.execPath,
        args: ['-e', ARGS_SCRIPT, '--', '--api-key', ARG_KEY, `--token=${ARG_TOKEN}`],
        timeoutMs: SAFETY_NET_MS,
      },
      [OAUTH]: {
        url: oauthDemo.url,
        oauth: {
          clientId: OAUTH_DEMO_CLIENT.clientId,
          clientSecret: '${keychain:oauthClientSecret}',
          tokenEndpointAuthMethod: 'client_secret_post',
        },
        timeoutMs: SAFETY_NET_MS,
      },
      // Found to use OAuth from its 401; its URL carries a key of its own.
      [URL_KEYED]: {
        url: `${proxied.url}?key=\${keychain:urlKey}&lang=en`,
        timeoutMs: SAFETY_NET_MS,
      },
    }
    config = writeRegistry(home, registry)
    core = await createCore({
      configPath: config,
      dataDir: home,
      watch: false,
      connect: true,
      pool: { probeIntervalMs: 0 },
      env: { ...process.env, ...FETCH_OPENER },
    })
    core.events.onAny((name, payload) => events.push({ name, payload }))
    handlers = createHandlers(core)
    for (const server of [RS, ECHO, LEAKY]) {
      await ipc('secrets:set', { server, name: 'apiKey', value: CANARY })
      await ipc('secrets:set', { server, name: 'extra', value: EXTRA })
    }
    await ipc('secrets:set', { server: ECHO, name: 'quoted', value: QUOTED })
    await ipc('secrets:set', { server: URL_KEYED, name: 'urlKey', value: URL_KEY })
    await ipc('secrets:set', {
      server: OAUTH,
      name: 'oauthClientSecret',
      value: OAUTH_DEMO_CLIENT.clientSecret,
    })
    await whenState(core, [RS, ECHO])
  })

  afterAll(async () => {
    for (const server of [RS, ECHO, LEAKY]) {
      for (const name of ['apiKey', 'extra', 'quoted'])
        await core?.secrets.delete(server, name).catch(() => {})
    }
    for (const name of ['oauthClientSecret', 'oauth.tokens', 'oauth.client', 'oauth.verifier'])
      await core?.secrets.keychain.delete(OAUTH, name).catch(() => {})
    for (const name of ['urlKey', 'oauth.tokens', 'oauth.client', 'oauth.verifier'])
      await core?.secrets.keychain.delete(URL_KEYED, name).catch(() => {})
    await oauthDemo?.stop()
    await core?.dispose()
    await ragSearch?.stop()
    proxy?.closeAllConnections()
    if (proxy) await new Promise((resolve) => proxy.close(resolve))
    echo?.closeAllConnections()
    if (echo) await new Promise((resolve) => echo.close(resolve))
    if (home) rmSync(home, { recursive: true, force: true })
  })

  it('uses the key for real calls over IPC, and no response or event carries it', async () => {
    await ipc('profiles:save', BOB)
    await ipc('profiles:activate', { id: BOB.id })
    await ipc('app:info')
    await ipc('registry:get')
    await ipc('config:read')
    await ipc('secrets:list')
    await ipc('servers:list')
    await ipc('pool:status')
    await ipc('pool:health')
    // OAuth: a real sign-in through the loopback redirect, then calls with the token.
    expect(await ipc('auth:login', { serverId: OAUTH })).toMatchObject({
      ok: true,
      value: { state: 'signed_in', account: 'bob@example.com' },
    })
    await rememberTokens()
    await ipc('auth:status', {})
    await ipc('servers:list')
    await whenState(core, [OAUTH])
    await ipc('pool:tools', { server: OAUTH, refresh: true })
    expect(
      await ipc('workbench:call', {
        server: OAUTH,
        tool: 'rag_discover_resources',
        arguments: { username: 'bob@example.com' },
      }),
    ).toMatchObject({ ok: true })
    await ipc('workbench:log', { server: OAUTH })
    await ipc('pool:log', { server: OAUTH })
    const discovery = (await ipc('discovery:run', {})) as { ok: boolean }
    expect(discovery.ok).toBe(true)
    const search = (await ipc('search:run', {
      searchId: 's1',
      query: 'vpn',
      selection: { [RS]: [], [ECHO]: [] },
    })) as {
      ok: true
      value: {
        servers: { server: string; ok: boolean; error?: { message: string } }[]
        hits: { server: string; id: string; sourceId?: string; uri?: string }[]
      }
    }
    // The key was accepted (hits came back), so it really was sent.
    expect(search.value.servers.find((s) => s.server === RS)).toMatchObject({ ok: true })
    const hit = search.value.hits.find((h) => h.server === RS)!
    // The echoing server quoted the key back: the error says so, without the key.
    const echoed = search.value.servers.find((s) => s.server === ECHO)!
    expect(echoed.ok).toBe(false)
    expect(echoed.error!.message).toContain(REDACTED)
    // The hit's raw payload, fetched as the Hit inspector does.
    const { sourceId } = hit
    expect(
      await ipc('search:raw', { searchId: 's1', server: RS, hitId: hit.id, sourceId }),
    ).toMatchObject({ ok: true, value: { held: true } })
    // A call that times out: the error names the timeout, never the credentials it carried.
    const hung = (await ipc('search:run', {
      searchId: 's-hang',
      query: 'hang',
      selection: { [ECHO]: [] },
      timeoutMs: 500,
    })) as { value: { servers: { ok: boolean; error?: { code: string } }[] } }
    expect(hung.value.servers[0]).toMatchObject({ ok: false, error: { code: 'timeout' } })
    await ipc('synthesis:run', { query: 'vpn', selection: { [RS]: [], [ECHO]: [] } })
    // The link the user clicked, signed for them (the history keeps it without its signature).
    const signed = search.value.hits.find((h) => h.server === RS && /[?&]sig=/.test(h.uri ?? ''))
    expect(signed, 'a hit with a signed link').toBeDefined()
    await ipc('access:check', { target: { url: signed!.uri }, refresh: true })
    await ipc('access:check', { target: { server: RS, segmentId: signed!.id }, refresh: true })
    await ipc('access:history')
    await ipc('access:check', { target: { server: RS, segmentId: hit.id }, refresh: true })
    await ipc('access:check-all', { batchId: 'b1', targets: [{ hit: { server: RS, id: hit.id } }] })
    await ipc('pool:reconnect', { server: RS })
    await ipc('pool:log', { server: ECHO })
    // The dying stdio server printed the key on stderr: its log shows that, without the key.
    const leaky = (await ipc('pool:log', { server: LEAKY })) as {
      value: { lines: { text: string }[] }
    }
    expect(leaky.value.lines.map((line) => line.text).join('\n')).toContain(`token ${REDACTED}`)
    // The same for credentials passed as arguments, and the error that names its stderr.
    const argsLog = (await ipc('pool:log', { server: ARGS })) as {
      value: { lines: { text: string }[] }
    }
    expect(argsLog.value.lines.map((line) => line.text).join('\n')).toContain(
      `--api-key ${REDACTED} --token=${REDACTED}`,
    )
    await ipc('pool:reconnect', { server: ARGS })
    await ipc('workbench:call', { server: ARGS, tool: 'anything' })
    // A reload that changes a keyed server: it reconnects with the key, and the log says so.
    writeRegistry(home, { ...registry, [ECHO]: { ...registry[ECHO], description: 'reloaded' } })
    expect(await ipc('registry:reload')).toMatchObject({ ok: true, value: { emitted: true } })
    await whenState(core, [ECHO])
    // The workbench: raw calls, the protocol log with the headers the console added, copies
    // and saved requests.
    const raw = (await ipc('workbench:call', {
      server: ECHO,
      tool: 'rag_search',
      arguments: { search_phrases: ['x'] },
    })) as { ok: boolean; error?: { message: string } }
    expect(raw.ok).toBe(false)
    expect(raw.error!.message).toContain(REDACTED)
    await ipc('workbench:call', {
      server: RS,
      tool: 'rag_search',
      arguments: { search_phrases: ['vpn'] },
    })
    for (const server of [RS, ECHO, LEAKY]) {
      const log = (await ipc('workbench:log', { server })) as {
        value: { entries: { seq: number }[] }
      }
      for (const { seq } of log.value.entries) await ipc('workbench:log-entry', { server, seq })
    }
    await ipc('workbench:copy', {
      server: RS,
      tool: 'rag_search',
      arguments: { search_phrases: ['vpn'] },
    })
    await ipc('workbench:saved-save', {
      server: RS,
      tool: 'rag_search',
      name: 'pasted key',
      arguments: { search_phrases: [CANARY] },
    })
    await ipc('workbench:history')
    await core.workbench.idle()
    await ipc('audit:list')
    await ipc('audit:export', { format: 'csv' })
    await core.services.idle()

    // The config editor shows the file as its author wrote it, plaintext key included.
    const config = responses.find((r) => r.channel === 'config:read')!
    expect(JSON.stringify(config.response)).toContain(PLAIN)
    for (const { channel, response } of responses) {
      const forbidden = channel === 'config:read' ? stored : needles
      expect(leaks(JSON.stringify(response), forbidden), channel).toEqual([])
    }
    for (const event of events)
      expect(leaks(JSON.stringify(event)), JSON.stringify(event).slice(0, 1500)).toEqual([])
    expect(events.length).toBeGreaterThan(0)
  })

  it("sends a key in a server's URL to that server only, never to its authorization server", async () => {
    expect(await ipc('auth:login', { serverId: URL_KEYED })).toMatchObject({
      ok: true,
      value: { state: 'signed_in' },
    })
    await whenState(core, [URL_KEYED])
    expect(
      await ipc('workbench:call', {
        server: URL_KEYED,
        tool: 'rag_discover_resources',
        arguments: { username: 'bob@example.com' },
      }),
    ).toMatchObject({ ok: true })
    const login = await cli(['--json', 'auth', 'login', '--server', URL_KEYED], FETCH_OPENER)
    expect(login.code, login.stdout).toBe(0)
    expect((await cli(['--json', 'tools', '--server', URL_KEYED])).code).toBe(0)
    const recorded = proxy.recorded!
    const paths = new Set(recorded.map((r) => r.path))
    for (const path of [
      '/authorize',
      '/token',
      '/register',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      expect(paths, path).toContain(path)
    }
    // The server itself got its key (the calls worked); nothing else did.
    expect(recorded.some((r) => r.path === '/mcp' && r.text.includes(URL_KEY))).toBe(true)
    const leaking = recorded.filter((r) => r.path !== '/mcp' && leaks(r.text).length > 0)
    expect([...new Set(leaking.map((r) => r.path))], leaking[0]?.text).toEqual([])
  })

  it('uses the key through the CLI, and no output carries it', async () => {
    const found = await cli(['--json', 'search', 'vpn', '--server', RS])
    expect(found.code).toBe(0)
    const segment = (JSON.parse(found.stdout) as { hits: { id: string }[] }).hits[0]!.id
    for (const json of [['--json'], []]) {
      // Independent of each other: three at a time.
      await cliEach([
        [...json, 'servers'],
        [...json, 'discover'],
        [...json, 'search', 'vpn', '--server', RS, '--server', ECHO],
        [...json, 'synthesize', 'vpn', '--server', RS, '--server', ECHO],
        [...json, 'verify', '--server', RS, '--segment', segment],
        [...json, 'secrets', 'list'],
        [
          ...json,
          'call',
          '--server',
          ECHO,
          '--tool',
          'rag_search',
          '--args',
          '{"search_phrases":["x"]}',
          '--log',
        ],
        [...json, 'call', '--server', ECHO, '--tool', 'echo_headers'],
        [...json, 'call', '--server', USERINFO, '--tool', 'rag_search'],
        [...json, 'call', '--server', ARGS, '--tool', 'anything'],
        [...json, 'tools', '--server', RS],
      ])
      await cli([...json, 'auth', 'login', '--server', OAUTH], FETCH_OPENER)
      await rememberTokens()
      await cli([...json, 'auth', 'status'])
      await cli([...json, 'tools', '--server', OAUTH])
    }
    const echoed = cliRuns.find(
      (c) => c.args.includes('rag_search') && c.args.includes('--log') && c.args.includes('--json'),
    )!
    expect(echoed.run.code).toBe(1)
    expect(echoed.run.stdout).toContain(REDACTED)
    // The headers came back quoted in the tool's JSON text, printed as JSON again: blanked.
    const headersShown = cliRuns.find(
      (c) => c.args.includes('echo_headers') && !c.args.includes('--json'),
    )!
    expect(headersShown.run.code).toBe(0)
    expect(headersShown.run.stdout).toContain(REDACTED)
    for (const { args, run } of cliRuns) {
      expect(leaks(run.stdout + run.stderr), args.join(' ')).toEqual([])
    }
  }, 300_000) // twenty-nine CLI processes

  it('leaves no trace in the logs, the audit log or any other file of the data folder', async () => {
    await core.services.idle()
    // Every signed link the checks and searches above handed out, by its signature.
    const shown = [
      ...responses.map(({ response }) => JSON.stringify(response)),
      ...cliRuns.map(({ run }) => run.stdout),
    ]
    const signatures = [...new Set(shown.flatMap(signaturesIn))]
    expect(signatures.length).toBeGreaterThan(2)
    const files = filesUnder(home)
    const names = files.map((f) => f.path.slice(home.length + 1))
    expect(names).toEqual(
      expect.arrayContaining([
        'audit/audit.jsonl',
        'logs/main.log',
        'rag-mcp.json',
        'settings.json',
      ]),
    )
    for (const file of files) {
      const forbidden = file.path.endsWith('rag-mcp.json') ? stored : needles
      expect(leaks(file.text, forbidden), file.path).toEqual([])
      expect(
        signatures.filter((signature) => file.text.includes(signature)),
        `signed links at rest in ${file.path}`,
      ).toEqual([])
    }
    expect(names).toContain('access-history.json')
  })
})
