import { describe, expect, it, vi } from 'vitest'
import type { ActingUser } from '#shared/model/user'
import { rejection, liveServerConfig, textOf, useTestScope } from '#test/support/pool/helpers'
import { waitFor } from '#test/support/process/wait-for'
import { startHttpFixture, type HttpFixture } from '../../../test/fixtures/pool/mcp-fixture.mjs'
import {
  startQuirkyServer,
  type QuirkyOptions,
  type QuirkyServer,
} from '#test/support/servers/quirky-http'

const scope = useTestScope()
const testPool = scope.pool

async function fixture(options: Parameters<typeof startHttpFixture>[0]): Promise<HttpFixture> {
  const server = await startHttpFixture(options)
  scope.defer(() => server.close())
  return server
}

async function quirky(options: QuirkyOptions): Promise<QuirkyServer> {
  const server = await startQuirkyServer(options)
  scope.defer(() => server.close())
  return server
}

const http = (
  id: string,
  url: string,
  extra: Parameters<typeof liveServerConfig>[0] | object = {},
) => liveServerConfig({ id, transport: 'http', url, ...extra })

const user = (n: number): ActingUser => ({
  userId: `user${n}@example.com`,
  sessionTags: [`dept:${n}`, 'premium'],
  humanUid: `human-${n}`,
  groups: [],
})

describe.each([
  { name: 'stateless, SSE-stream replies', options: {} },
  { name: 'stateless, JSON replies', options: { json: true } },
  { name: 'with sessions, SSE-stream replies', options: { stateful: true } },
  { name: 'with sessions, JSON replies', options: { stateful: true, json: true } },
])('streamable HTTP ($name)', ({ options }) => {
  it('connects, lists the tools and calls one', async () => {
    const server = await fixture({ transport: 'http', ...options })
    const { pool } = testPool()
    await pool.apply([http('docs', server.url)])
    const session = await pool.session('docs')
    expect(session.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'whoami', 'sleep']),
    )
    const result = await session.callTool('echo', { text: 'over http' }, { operation: 'call' })
    expect(textOf(result)).toBe('over http')
  })
})

describe('connecting', () => {
  it('reports a url with a user name and password as a config error that does not repeat it', async () => {
    const server = await fixture({ transport: 'http', json: true })
    const { pool, waitForState } = testPool()
    const url = server.url.replace('http://', 'http://svc:pass-in-url-42@')
    await pool.apply([http('docs', url)])
    const status = await waitForState('docs', 'action_required')
    expect(status).toMatchObject({ lastError: { code: 'config' } })
    const { reason } = status as { reason: string }
    expect(reason).toMatch(/user name or password/)
    expect(reason).not.toContain('pass-in-url-42')
  })

  it('reports a resolved header value HTTP cannot carry as a config error, not unreachable', async () => {
    const server = await fixture({ transport: 'http', json: true })
    const { pool, waitForState } = testPool({}, { TENANT: 'acme\r\nX-Injected: 1' })
    await pool.apply([http('docs', server.url, { headers: { 'X-Tenant': '${env:TENANT}' } })])
    const status = await waitForState('docs', 'action_required')
    expect(status).toMatchObject({ lastError: { code: 'config' } })
    const { reason } = status as { reason: string }
    expect(reason).toMatch(/header value .*cannot be sent/)
    expect(reason).not.toMatch(/retrying/)
  })

  it('shares one pending connect between concurrent callers', async () => {
    const server = await fixture({ transport: 'http', json: true })
    const { pool } = testPool()
    await pool.apply([http('docs', server.url)])
    const sessions = await Promise.all(Array.from({ length: 5 }, () => pool.session('docs')))
    expect(new Set(sessions).size).toBe(1)
    expect(server.requests.filter((r) => r.rpcMethod === 'initialize')).toHaveLength(1)
  })
})

describe('HTTP fetch layers', () => {
  it('sends each concurrent call the headers of its own user on one Client', async () => {
    const server = await fixture({ transport: 'http', json: true })
    const { pool } = testPool()
    await pool.apply([http('docs', server.url, { identityHeaders: true })])
    await pool.session('docs')
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, n) =>
        pool.callTool('docs', 'whoami', {}, { operation: 'search', user: user(n) }),
      ),
    )
    results.forEach((result, n) => {
      expect(JSON.parse(textOf(result))).toMatchObject({
        userId: `user${n}@example.com`,
        sessionTags: JSON.stringify([`dept:${n}`, 'premium']),
        humanUid: `human-${n}`,
      })
    })
    // All of it on one Client: one handshake.
    expect(server.requests.filter((r) => r.rpcMethod === 'initialize')).toHaveLength(1)
  })

  it('escapes non-ASCII session tags so they parse back exactly', async () => {
    const server = await fixture({ transport: 'http', json: true })
    const { pool } = testPool()
    await pool.apply([http('docs', server.url, { identityHeaders: true })])
    const tags = ['région:nord', '部署:営業']
    const result = await pool.callTool(
      'docs',
      'whoami',
      {},
      {
        operation: 'search',
        user: { userId: 'u1', sessionTags: tags, groups: [] },
      },
    )
    expect(JSON.parse(JSON.parse(textOf(result)).sessionTags)).toEqual(tags)
  })

  it('refuses a user id that an HTTP header cannot carry, naming it', async () => {
    const server = await fixture({ transport: 'http', json: true })
    const { pool } = testPool()
    await pool.apply([http('docs', server.url, { identityHeaders: true })])
    const error = await rejection(
      pool.callTool(
        'docs',
        'whoami',
        {},
        {
          operation: 'search',
          user: { userId: 'zoë@example.com', sessionTags: [], groups: [] },
        },
      ),
    )
    expect(error).toMatchObject({ code: 'invalid_argument', origin: 'local' })
    expect(error.message).toMatch(/zoë@example.com/)
  })

  it('sends no user headers on a call without a user', async () => {
    const server = await fixture({ transport: 'http', json: true })
    const { pool } = testPool()
    await pool.apply([http('docs', server.url)])
    const result = await pool.callTool('docs', 'whoami', {}, { operation: 'call' })
    expect(JSON.parse(textOf(result)).userId).toBeUndefined()
  })

  it('adds static and secret-resolved headers', async () => {
    const server = await fixture({ transport: 'http', json: true })
    const { pool } = testPool({}, { DOCS_KEY: 'k-123', DOCS_TOKEN: 't-456' })
    await pool.apply([
      http('docs', server.url, {
        headers: { 'X-API-Key': '${env:DOCS_KEY}', Authorization: 'Bearer ${env:DOCS_TOKEN}' },
      }),
    ])
    const result = await pool.callTool('docs', 'whoami', {}, { operation: 'call' })
    expect(JSON.parse(textOf(result))).toMatchObject({
      apiKey: 'k-123',
      authorization: 'Bearer t-456',
    })
  })

  it('aborts the HTTP request of a call that times out', async () => {
    const server = await quirky({ hangTools: ['hang'] })
    const { pool } = testPool()
    await pool.apply([http('slow', server.url)])
    await pool.session('slow')
    const error = await rejection(
      pool.callTool('slow', 'hang', {}, { operation: 'search', timeoutMs: 200 }),
    )
    expect(error).toMatchObject({ code: 'timeout', origin: 'local', server: 'slow' })
    const hung = server.requests.find((r) => r.rpcMethod === 'tools/call')
    await waitFor(() => hung?.aborted, 'the server to see the request aborted')
  })

  it('aborts the HTTP request of a cancelled call', async () => {
    const server = await quirky({ hangTools: ['hang'] })
    const { pool } = testPool()
    await pool.apply([http('slow', server.url)])
    await pool.session('slow')
    const controller = new AbortController()
    const call = pool.callTool(
      'slow',
      'hang',
      {},
      { operation: 'search', signal: controller.signal },
    )
    await waitFor(() => server.requests.some((r) => r.rpcMethod === 'tools/call'))
    controller.abort()
    expect((await rejection(call)).code).toBe('cancelled')
    await waitFor(() => server.requests.find((r) => r.rpcMethod === 'tools/call')?.aborted)
  })

  it('captures X-RateLimit headers per server', async () => {
    const server = await quirky({ rateLimit: { limit: 60, remaining: 57, reset: 1708545600 } })
    const { pool } = testPool()
    await pool.apply([http('ragbox', server.url)])
    await pool.callTool('ragbox', 'rag_search', {}, { operation: 'search' })
    expect(pool.health('ragbox')[0]!.rateLimit).toMatchObject({
      limit: 60,
      remaining: 57,
      reset: 1708545600,
    })
  })

  it('shows a server as degraded while its rate limit is exhausted', async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600
    const server = await quirky({ rateLimit: { limit: 60, remaining: 0, reset } })
    const { pool } = testPool()
    await pool.apply([http('ragbox', server.url)])
    await pool.callTool('ragbox', 'rag_search', {}, { operation: 'search' })
    expect(pool.status('ragbox')).toMatchObject({ state: 'degraded' })
    expect((pool.status('ragbox') as { reason: string }).reason).toMatch(/rate limit exhausted/)
  })

  it('classifies HTTP 429 as rate_limited from the server', async () => {
    const server = await quirky({ tooManyRequests: true })
    const { pool } = testPool()
    await pool.apply([http('ragbox', server.url)])
    const error = await rejection(
      pool.callTool('ragbox', 'rag_search', {}, { operation: 'search' }),
    )
    expect(error).toMatchObject({
      code: 'rate_limited',
      origin: 'server',
      details: { retryAfter: 7 },
    })
  })

  it('puts a server that answers 401 in action_required with an unauthorized error', async () => {
    const server = await quirky({ requireKey: 'right-key' })
    const { pool, secrets, waitForState } = testPool({}, { KEY: 'wrong-key' })
    await pool.apply([http('ragbox', server.url, { headers: { 'X-API-Key': '${env:KEY}' } })])
    const status = await waitForState('ragbox', 'action_required')
    expect(status).toMatchObject({ lastError: { code: 'unauthorized', origin: 'server' } })
    expect((status as { reason: string }).reason).toMatch(/HTTP 401.*Secrets/)
    expect(JSON.stringify(status)).not.toContain('wrong-key')

    secrets.env.KEY = 'right-key'
    expect((await pool.reconnect('ragbox')).status.state).toBe('ready')
  })

  it("classifies a server's -32000/-32001 by origin, not by number", async () => {
    const server = await quirky({
      hangTools: ['hang'],
      rpcErrors: {
        locked: { code: -32000, message: 'Unauthorized: invalid API key' },
        busy: { code: -32001, message: 'Rate limited' },
        odd: { code: -32001, message: 'Vault is being re-indexed' },
      },
    })
    const { pool } = testPool()
    await pool.apply([http('ragbox', server.url)])
    const call = (tool: string, timeoutMs?: number) =>
      rejection(
        pool.callTool(
          'ragbox',
          tool,
          {},
          { operation: 'search', ...(timeoutMs ? { timeoutMs } : {}) },
        ),
      )
    expect(await call('locked')).toMatchObject({
      code: 'unauthorized',
      origin: 'server',
      details: { code: -32000 },
    })
    expect(await call('busy')).toMatchObject({
      code: 'rate_limited',
      origin: 'server',
      details: { code: -32001 },
    })
    expect(await call('odd')).toMatchObject({
      code: 'server_error',
      origin: 'server',
      details: { code: -32001 },
    })
    expect(await call('hang', 100)).toMatchObject({ code: 'timeout', origin: 'local' })
    // A JSON-RPC "unauthorized" on one call does not mark the server as needing a new key.
    expect(pool.status('ragbox').state).not.toBe('action_required')
  })

  it('keeps non-standard result keys (spec 000) as the server sent them', async () => {
    const server = await quirky({})
    const { pool } = testPool()
    await pool.apply([http('mindset', server.url)])
    const result = await pool.callTool(
      'mindset',
      'rag_search',
      { search_phrases: ['q'] },
      { operation: 'search' },
    )
    expect(result).toMatchObject({ status: 'success', segments: [{ segment_uid: 's1' }] })
  })
  it.each([
    { name: 'JSON', options: { json: true } },
    { name: 'SSE-stream', options: {} },
  ])(
    'sends JSON-RPC POSTs on its own keep-alive agent, not the WHATWG fetch ($name replies)',
    async ({ options }) => {
      // The WHATWG fetch costs several times the CPU per call, paid once per server in a fan-out.
      const server = await fixture({ transport: 'http', ...options })
      const spy = vi.spyOn(globalThis, 'fetch')
      scope.defer(async () => spy.mockRestore())
      const { pool } = testPool()
      await pool.apply([http('docs', server.url)])
      const result = await pool.callTool(
        'docs',
        'echo',
        { text: 'on the agent' },
        { operation: 'search', user: user(1) },
      )
      expect(textOf(result)).toBe('on the agent')
      const posts = spy.mock.calls.filter(([, init]) => init?.method === 'POST')
      expect(posts).toEqual([])
      expect(server.requests.filter((r) => r.rpcMethod === 'tools/call')).toHaveLength(1)
    },
  )
})

describe('HTTP protocol repairs', () => {
  it('tolerates replies without "jsonrpc" and with extra top-level keys', async () => {
    const server = await quirky({ dropJsonrpc: true, extraKeys: true })
    const { pool } = testPool()
    await pool.apply([http('bent', server.url)])
    const result = await pool.callTool('bent', 'rag_search', {}, { operation: 'search' })
    expect(result.status).toBe('success')
    const notes = pool.log('bent').map((l) => l.text)
    expect(notes.some((n) => /"jsonrpc"/.test(n))).toBe(true)
    expect(notes.some((n) => /timestamp, meta/.test(n))).toBe(true)
  })

  it('repairs replies sent as an SSE stream', async () => {
    const server = await quirky({ dropJsonrpc: true, sseReplies: true })
    const { pool } = testPool()
    await pool.apply([http('bent', server.url)])
    const result = await pool.callTool('bent', 'rag_search', {}, { operation: 'search' })
    expect(result.status).toBe('success')
  })

  it('fails a non-object result at once as protocol, from the server', async () => {
    const server = await quirky({})
    const { pool } = testPool()
    await pool.apply([http('bent', server.url)])
    const error = await rejection(pool.callTool('bent', 'broken', {}, { operation: 'search' }))
    expect(error).toMatchObject({ code: 'protocol', origin: 'server' })
    expect(error.message).toMatch(/"result" is the string "oops"/)
  })

  it('fails an HTML page instead of JSON as protocol', async () => {
    const server = await quirky({})
    const { pool } = testPool()
    await pool.apply([http('bent', server.url)])
    const error = await rejection(pool.callTool('bent', 'html', {}, { operation: 'search' }))
    expect(error).toMatchObject({ code: 'protocol', origin: 'server' })
    expect(error.message).toMatch(/not JSON/)
  })

  it('talks to a server that rejects initialize without the handshake', async () => {
    const server = await quirky({ rejectInitialize: true })
    const { pool } = testPool()
    await pool.apply([http('nohandshake', server.url)])
    const session = await pool.session('nohandshake')
    expect(session.tools.map((t) => t.name)).toContain('rag_search')
    const result = await session.callTool('rag_search', {}, { operation: 'search' })
    expect(result.status).toBe('success')
    const initializes = server.requests.filter((r) => r.rpcMethod === 'initialize')
    expect(initializes).toHaveLength(1)
  })

  it('accepts 404 and 204 answers to notifications', async () => {
    for (const status of [404, 204]) {
      const server = await quirky({ notificationStatus: status })
      const { pool } = testPool()
      await pool.apply([http('notes', server.url)])
      await pool.session('notes')
      expect(pool.status('notes').state).toBe('ready')
    }
  })

  it('refuses a broken GET stream once, without polling', async () => {
    const server = await quirky({ getStatus: 404 })
    const { pool } = testPool()
    await pool.apply([http('noget', server.url)])
    await pool.session('noget')
    for (let i = 0; i < 3; i++)
      await pool.callTool('noget', 'rag_search', {}, { operation: 'search' })
    await waitFor(() => pool.log('noget').some((l) => /no server-to-client stream/.test(l.text)))
    expect(server.requests.filter((r) => r.httpMethod === 'GET').length).toBeLessThanOrEqual(1)
    expect(pool.status('noget').state).toBe('ready')
  })

  it('reaches a per-method-endpoint server by rewriting the URL', async () => {
    const server = await quirky({ perMethodOnly: true, basePath: '/_v/rag_server/v1/mcp' })
    const { pool } = testPool()
    await pool.apply([http('vtex', server.url, { dialect: 'vtex' })])
    const session = await pool.session('vtex')
    expect(session.tools.map((t) => t.name)).toContain('rag_search')
    await session.callTool('rag_search', {}, { operation: 'search' })
    const paths = server.requests.filter((r) => r.rpcMethod === 'tools/call').map((r) => r.path)
    expect(paths.at(-1)).toBe('/_v/rag_server/v1/mcp/tools/call')
    expect(pool.log('vtex').some((l) => /per-method endpoints/.test(l.text))).toBe(true)
  })
})

describe('HTTP faults', () => {
  it('marks a server that went away down and recovers on the same Client when it is back', async () => {
    const first = await startHttpFixture({ transport: 'http', json: true })
    const { pool, waitForState } = testPool()
    await pool.apply([http('docs', first.url)])
    await pool.session('docs')
    await first.close()

    const error = await rejection(
      pool.callTool('docs', 'echo', { text: 'x' }, { operation: 'call' }),
    )
    expect(error).toMatchObject({ code: 'unreachable', origin: 'local' })
    expect(error.message).toMatch(/connection refused|closed by the other side/)
    const down = await waitForState('docs', 'down')
    expect(down).toMatchObject({ lastError: { code: 'unreachable' } })

    const second = await fixture({ transport: 'http', json: true, port: first.port })
    await waitForState('docs', 'ready')
    const result = await pool.callTool('docs', 'echo', { text: 'back' }, { operation: 'call' })
    expect(textOf(result)).toBe('back')
    // Same Client: no new handshake against the restarted server.
    expect(second.requests.filter((r) => r.rpcMethod === 'initialize')).toHaveLength(0)
  })

  it('rebuilds the Client when a restarted server no longer knows the session', async () => {
    const first = await startHttpFixture({ transport: 'http', stateful: true })
    const { pool, waitForState } = testPool()
    await pool.apply([http('docs', first.url)])
    await pool.session('docs')
    await first.close()
    const second = await fixture({ transport: 'http', stateful: true, port: first.port })

    await rejection(pool.callTool('docs', 'echo', { text: 'x' }, { operation: 'call' }))
    await waitForState('docs', 'down')
    await waitFor(() => second.requests.some((r) => r.rpcMethod === 'initialize'))
    await waitForState('docs', 'ready')
    const result = await pool.callTool(
      'docs',
      'echo',
      { text: 'new session' },
      { operation: 'call' },
    )
    expect(textOf(result)).toBe('new session')
  })

  it('fails with unreachable and retries when the server is not running at all', async () => {
    const { pool, waitForState, statuses } = testPool()
    await pool.apply([http('gone', 'http://127.0.0.1:9/mcp')])
    const down = await waitForState('gone', 'down')
    expect(down).toMatchObject({ attempt: 1, lastError: { code: 'unreachable', origin: 'local' } })
    expect((down as { nextRetryAt: number }).nextRetryAt).toBeGreaterThan(Date.now() - 1000)
    await waitFor(() => statuses.some((s) => s.status.state === 'down' && s.status.attempt === 2))
  })
})

describe('health probe', () => {
  it('probes with tools/list, counting no failure, after a -32601 reply to ping (with extra keys)', async () => {
    const server = await quirky({ pingError: true })
    const { pool } = testPool({ probeIntervalMs: 30 })
    await pool.apply([http('p', server.url)])
    await pool.session('p')
    const listed = server.requests.filter((r) => r.rpcMethod === 'tools/list').length
    await waitFor(
      () => server.requests.filter((r) => r.rpcMethod === 'tools/list').length > listed + 1,
    )
    expect(server.requests.filter((r) => r.rpcMethod === 'ping')).toHaveLength(1)
    expect(pool.status('p').state).toBe('ready')
    const health = pool.health('p')[0]!
    expect(health.lastCheckAt).toBeGreaterThan(0)
    expect(health.overall.errors).toEqual({})
  })

  it('falls back to tools/list when ping is not routed', async () => {
    const server = await quirky({ pingStatus: 404 })
    const { pool } = testPool({ probeIntervalMs: 30 })
    await pool.apply([http('p', server.url)])
    await pool.session('p')
    await waitFor(() => pool.log('p').some((l) => /health probes use tools\/list/.test(l.text)))
    const listed = server.requests.filter((r) => r.rpcMethod === 'tools/list').length
    await waitFor(
      () => server.requests.filter((r) => r.rpcMethod === 'tools/list').length > listed + 1,
    )
    expect(pool.status('p').state).toBe('ready')
  })
})
