import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IpcResponse } from '#shared/ipc/wire'
import type { InvokeChannel, InvokeResult } from '#shared/ipc/contract'
import { MASK } from '#shared/config/plaintext-secrets'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import { dispatch } from '../api/dispatch'
import { createHandlers, type Handlers } from '../api/handlers'
import { createCore, type Core } from '../core'
import { fixture, isAlive } from '#test/support/pool/helpers'
import { waitFor } from '#test/support/process/wait-for'
import { SAFETY_NET_MS } from '#test/support/process/limits'
import { listeningUrl, startChild } from '#test/support/process/start-child'

/**
 * The workbench over IPC against `@modelcontextprotocol/server-everything` (every content type,
 * resources, prompts, logging) and a hand-written paging server, both real stdio children.
 */

const everything = join(
  dirname(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'),
  ),
  'dist/index.js',
)

let dir: string
let core: Core
let handlers: Handlers
const events: { server: string; entries: ProtocolEntry[] }[] = []

async function ok<C extends InvokeChannel>(
  channel: C,
  request?: unknown,
): Promise<InvokeResult<C>> {
  const response = (await dispatch(handlers, channel, request)) as IpcResponse<InvokeResult<C>>
  if (!response.ok) throw new Error(`${channel}: ${JSON.stringify(response.error)}`)
  return response.value
}

async function failure(
  channel: InvokeChannel,
  request?: unknown,
): Promise<Record<string, unknown>> {
  const response = await dispatch(handlers, channel, request)
  if (response.ok) throw new Error(`${channel} succeeded: ${JSON.stringify(response.value)}`)
  return response.error as unknown as Record<string, unknown>
}

const call = (tool: string, args: Record<string, unknown> = {}, extra: object = {}) =>
  ok('workbench:call', { server: 'everything', tool, arguments: args, ...extra })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rc-workbench-'))
  const configPath = join(dir, 'rag-mcp.json')
  writeFileSync(
    configPath,
    JSON.stringify({
      everything: {
        command: process.execPath,
        args: [everything, 'stdio'],
        timeoutMs: SAFETY_NET_MS,
      },
      paged: { command: process.execPath, args: [fixture('paged-stdio-server.mjs')] },
      forAdmins: {
        command: process.execPath,
        args: [fixture('paged-stdio-server.mjs')],
        groups: ['admins'],
      },
    }),
  )
  core = await createCore({
    configPath,
    dataDir: join(dir, 'data'),
    watch: false,
    pool: { probeIntervalMs: 0 },
    logToStderr: null,
    actingUser: {
      userId: 'bob@example.com',
      sessionTags: ['department:engineering'],
      groups: ['users'],
    },
    keychain: { openEntry: () => Promise.reject(new Error('no keychain in this test')) },
  })
  core.events.on('workbench:protocol', (event) => events.push(event))
  await core.pool.applyRegistry(core.registry.current())
  handlers = createHandlers(core)
  await core.pool.session('everything')
})

afterAll(async () => {
  await core?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

describe('calling any tool', () => {
  it('returns image blocks exactly as sent', async () => {
    const { result, isError } = await call('get-tiny-image')
    expect(isError).toBe(false)
    const image = (result.content as Record<string, unknown>[]).find((b) => b.type === 'image')
    expect(image).toMatchObject({ mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) })
  })

  it('returns embedded resources with their blob', async () => {
    const { result } = await call('get-resource-reference', { resourceType: 'Blob', resourceId: 2 })
    const block = (result.content as Record<string, unknown>[]).find((b) => b.type === 'resource')
    expect(block?.resource).toMatchObject({ uri: expect.stringContaining('blob/2') })
    expect((block?.resource as { blob?: string }).blob).toEqual(expect.any(String))
  })

  it('returns structuredContent beside the content', async () => {
    const { result } = await call('get-structured-content', { location: 'New York' })
    expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number) })
  })

  it('refuses arguments that do not fit the input schema, without sending them', async () => {
    const before = core.workbench.log('everything').length
    const error = await failure('workbench:call', {
      server: 'everything',
      tool: 'get-sum',
      arguments: { a: 'two' },
    })
    expect(error.code).toBe('invalid_argument')
    expect((error.details as { problems: unknown[] }).problems).toEqual(
      expect.arrayContaining([
        { path: '/a', message: expect.stringMatching(/number/) },
        { path: '/b', message: 'is required' },
      ]),
    )
    const sent = core.workbench.log('everything').slice(before)
    expect(sent.filter((e) => e.method === 'tools/call')).toEqual([])
  })

  it('shows a tool error as isError when validation is skipped', async () => {
    const { isError } = await call('get-sum', { a: 'two', b: 1 }, { skipValidation: true })
    expect(isError).toBe(true)
  })

  it('refuses a server hidden from the acting profile, as every other operation does', async () => {
    const error = await failure('workbench:prompts', { server: 'forAdmins' })
    expect(error).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringMatching(/hidden from profile/),
    })
    expect(core.workbench.log('forAdmins').filter((e) => e.method === 'prompts/list')).toEqual([])
  })

  it('validates without calling', async () => {
    const valid = await ok('workbench:validate', {
      server: 'everything',
      tool: 'get-sum',
      arguments: { a: 1, b: 2 },
    })
    expect(valid).toEqual({ valid: true, problems: [] })
  })

  it('cancels a running call by its id', async () => {
    const running = dispatch(handlers, 'workbench:call', {
      server: 'everything',
      tool: 'trigger-long-running-operation',
      arguments: { duration: 30, steps: 3 },
      callId: 'long-1',
    })
    await waitFor(() =>
      core.workbench
        .log('everything')
        .some((e) => e.method === 'tools/call' && e.direction === 'out'),
    )
    expect(await ok('workbench:cancel', { callId: 'long-1' })).toEqual({ cancelled: true })
    const response = await running
    expect(response.ok ? 'resolved' : response.error.code).toBe('cancelled')
  })

  it('gives up after the per-call timeout', async () => {
    const error = await failure('workbench:call', {
      server: 'everything',
      tool: 'trigger-long-running-operation',
      arguments: { duration: 30, steps: 3 },
      timeoutMs: 300,
    })
    expect(error.code).toBe('timeout')
  })

  it('keeps each call in the history and audits it as the acting user', async () => {
    const { calls } = await ok('workbench:history', { server: 'everything' })
    expect(calls[0]).toMatchObject({
      tool: 'trigger-long-running-operation',
      outcome: 'error',
      errorCode: 'timeout',
    })
    expect(calls.map((c) => c.outcome)).toEqual(expect.arrayContaining(['ok', 'tool_error']))
    await core.workbench.idle()
    const audit = core.services.audit.read({ server: 'everything', operation: 'workbench' }).entries
    expect(
      audit.some((line) => line.tool === 'get-tiny-image' && line.user === 'bob@example.com'),
    ).toBe(true)
  })
})

describe('resources and prompts', () => {
  it('lists resources and templates with their variables, and reads a binary one', async () => {
    const { items } = await ok('workbench:resources', { server: 'everything' })
    expect(items.map((r) => r.uri)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^demo:\/\/resource\/static/)]),
    )
    const templates = await ok('workbench:resource-templates', { server: 'everything' })
    const blob = templates.items.find((t) => String(t.uriTemplate).includes('blob'))
    expect(blob?.variables).toEqual(['resourceId'])
    const { contents } = await ok('workbench:read-resource', {
      server: 'everything',
      uri: 'demo://resource/dynamic/blob/3',
    })
    expect(contents[0]).toMatchObject({
      uri: 'demo://resource/dynamic/blob/3',
      blob: expect.any(String),
    })
  })

  it('subscribes to a resource', async () => {
    expect(
      await ok('workbench:subscribe', {
        server: 'everything',
        uri: 'demo://resource/dynamic/text/1',
        subscribe: true,
      }),
    ).toEqual({ subscribed: true })
  })

  it('says clearly when a server does not support subscriptions', async () => {
    const error = await failure('workbench:subscribe', {
      server: 'paged',
      uri: 'paged://doc/1',
      subscribe: true,
    })
    expect(error).toMatchObject({ code: 'unsupported', server: 'paged' })
    expect(error.message).toMatch(/resources\/subscribe/)
  })

  it('follows cursors page by page', async () => {
    const first = await ok('workbench:resources', { server: 'paged' })
    expect(first).toEqual({
      items: [expect.objectContaining({ uri: 'paged://doc/1' }), expect.anything()],
      nextCursor: '2',
    })
    const second = await ok('workbench:resources', { server: 'paged', cursor: first.nextCursor })
    expect(second.items.map((r) => r.uri)).toEqual(['paged://doc/3', 'paged://doc/4'])
    const all = await core.workbench.listAll('paged', (s, c) => core.workbench.prompts(s, c))
    expect(all.offered).toBe(true)
    expect(all.items.map((p) => p.name)).toEqual(['prompt-1', 'prompt-2', 'prompt-3'])
    const templates = await ok('workbench:resource-templates', { server: 'paged' })
    expect(templates.items[0]?.variables).toEqual(['id', 'lang', 'fmt'])
  })

  it('lists prompts and gets one with arguments', async () => {
    const { items } = await ok('workbench:prompts', { server: 'everything' })
    expect(items.map((p) => p.name)).toContain('args-prompt')
    const prompt = await ok('workbench:get-prompt', {
      server: 'everything',
      name: 'args-prompt',
      arguments: { city: 'Paris', state: 'Texas' },
    })
    expect(JSON.stringify(prompt.messages)).toContain('Paris')
  })
})

describe('the protocol log', () => {
  it('records requests and replies with method, id, size and duration', () => {
    const entries = core.workbench.log('everything')
    const request = entries.find((e) => e.direction === 'out' && e.method === 'tools/list')!
    expect(request).toMatchObject({
      kind: 'request',
      id: expect.anything(),
      size: expect.any(Number),
    })
    const reply = entries.find((e) => e.direction === 'in' && e.id === request.id)!
    expect(reply).toMatchObject({ kind: 'response', durationMs: expect.any(Number) })
  })

  it('keeps the stderr of a stdio server', () => {
    const entries = core.workbench.log('paged')
    expect(entries).toContainEqual(
      expect.objectContaining({ direction: 'stderr', text: 'paged server starting' }),
    )
  })

  it('truncates large messages and returns the whole one on request', async () => {
    await call('get-env')
    const big = core.workbench.log('everything').find((e) => e.truncated)!
    expect(big.text.length).toBeLessThan(big.size)
    const { full } = await ok('workbench:log-entry', { server: 'everything', seq: big.seq })
    expect(full!.length).toBeGreaterThan(big.text.length)
    expect(JSON.parse(full!)).toMatchObject({ jsonrpc: '2.0' })
  })

  it('sends logging/setLevel and shows the notifications/message that follow', async () => {
    expect(await ok('workbench:set-level', { server: 'everything', level: 'debug' })).toEqual({
      level: 'debug',
    })
    await call('toggle-simulated-logging')
    const message = await waitFor(() =>
      core.workbench.log('everything').find((e) => e.method === 'notifications/message'),
    )
    expect(message).toMatchObject({
      direction: 'in',
      kind: 'notification',
      level: expect.any(String),
    })
    await call('toggle-simulated-logging')
    // The renderer hears of new entries in batches.
    await waitFor(() =>
      events.some((e) => e.entries.some((x) => x.method === 'notifications/message')),
    )
  })

  it('clears on request', async () => {
    const { cleared } = await ok('workbench:log-clear', { server: 'paged' })
    expect(cleared).toBeGreaterThan(0)
    expect(core.workbench.log('paged')).toEqual([])
  })
})

describe('servers tried by hand', () => {
  it('tries a stdio command, uses it like any server, and stops it on close', async () => {
    const tried = await ok('workbench:try', {
      transport: 'stdio',
      command: process.execPath,
      args: [fixture('paged-stdio-server.mjs')],
    })
    expect(tried).toMatchObject({ server: 'try-1', transport: 'stdio', headerNames: [] })
    expect((await ok('workbench:resources', { server: tried.server })).items).toHaveLength(2)
    expect((await ok('workbench:log', { server: tried.server })).entries.length).toBeGreaterThan(0)
    // The panel lists a tried server's tools like any other's.
    expect(await ok('pool:tools', { server: tried.server, refresh: true })).toMatchObject({
      server: tried.server,
      tools: [],
      serverInfo: { name: 'paged' },
    })
    const [pid] = core.workbench.tries.pool.pids()
    expect(await ok('workbench:try-close', { server: tried.server })).toEqual({ closed: true })
    await waitFor(() => !isAlive(pid!))
    expect(await failure('workbench:resources', { server: tried.server })).toMatchObject({
      code: 'not_found',
    })
  })

  it('says a tried server’s command was not found without pointing at rag-mcp.json', async () => {
    const tried = await ok('workbench:try', {
      transport: 'stdio',
      command: 'rag-console-no-such-command',
    })
    const error = await failure('workbench:resources', { server: tried.server })
    expect(error.message).toMatch(/command not found \(rag-console-no-such-command\)/)
    expect(error.message).toMatch(/the command given to "Try a server"/)
    expect(error.message).not.toMatch(/rag-mcp\.json/)
    await ok('workbench:try-close', { server: tried.server })
  })

  it('lists the servers being tried until they are closed, with secret-looking args masked', async () => {
    const tried = await ok('workbench:try', {
      transport: 'stdio',
      command: process.execPath,
      args: [fixture('paged-stdio-server.mjs'), '--api-key', 'sk-live-hunter22hunter22'],
    })
    expect(await ok('workbench:try-list')).toEqual({
      servers: [
        {
          server: tried.server,
          transport: 'stdio',
          command: process.execPath,
          args: [fixture('paged-stdio-server.mjs'), '--api-key', MASK],
          headerNames: [],
        },
      ],
    })
    await ok('workbench:try-close', { server: tried.server })
    expect(await ok('workbench:try-list')).toEqual({ servers: [] })
  })
})

describe('credentials in the URL and arguments of a tried server', () => {
  const savedFile = (): string =>
    readFileSync(join(dir, 'data', 'workbench', 'saved-requests.json'), 'utf8')

  /** Everything a person can see of a tried server: list, a call, its log, copies, saved. */
  async function everywhere(server: string, secrets: string[]): Promise<string> {
    const text = `keys ${secrets.join(' and ')}`
    const args = { text }
    const seen = [
      await ok('workbench:try-list'),
      await ok('workbench:call', { server, tool: 'echo', arguments: args }),
      await ok('workbench:log', { server }),
      events.filter((event) => event.server === server),
      await ok('workbench:copy', { server, tool: 'echo', arguments: args }),
      await ok('workbench:saved-save', { server, tool: 'echo', name: 'keys', arguments: args }),
    ]
    return `${JSON.stringify(seen)}\n${savedFile()}`
  }

  it('keeps a key in the query of a tried URL out of everything shown or saved', async () => {
    const http = await startChild(
      [fixture('http-server.mjs'), '--transport', 'http', '--json'],
      listeningUrl,
    )
    try {
      const key = `k${Math.random().toString(36).slice(2)}Q7`
      const tried = await ok('workbench:try', {
        transport: 'http',
        url: `${http.ready}?api_key=${key}&tenant=acme`,
      })
      const shown = await everywhere(tried.server, [key])
      expect(shown).toContain('keys [redacted]')
      expect(shown).not.toContain(key)
      const copied = await ok('workbench:copy', {
        server: tried.server,
        tool: 'echo',
        arguments: {},
      })
      expect(copied.cli).toContain('api_key=${API_KEY}&tenant=acme')
      expect(copied.curl).toContain('api_key=${API_KEY}&tenant=acme')
      await ok('workbench:try-close', { server: tried.server })
    } finally {
      await http.stop()
    }
  })

  it('keeps --api-key and --token= values of a tried command out of everything shown or saved', async () => {
    const apiKey = `k${Math.random().toString(36).slice(2)}A1`
    const token = `t${Math.random().toString(36).slice(2)}B2`
    const tried = await ok('workbench:try', {
      transport: 'stdio',
      command: process.execPath,
      args: [fixture('stdio-server.mjs'), '--api-key', apiKey, `--token=${token}`],
    })
    const shown = await everywhere(tried.server, [apiKey, token])
    expect(shown).toContain('keys [redacted] and [redacted]')
    expect(shown).not.toContain(apiKey)
    expect(shown).not.toContain(token)
    const copied = await ok('workbench:copy', { server: tried.server, tool: 'echo', arguments: {} })
    expect(copied.cli).toContain('--api-key ${API_KEY} --token=${TOKEN}')
    await ok('workbench:try-close', { server: tried.server })
  })
})

describe('copy and saved requests', () => {
  it('copies a call as a rag-console command (no cURL for stdio)', async () => {
    const copied = await ok('workbench:copy', {
      server: 'everything',
      tool: 'get-sum',
      arguments: { a: 1, b: 2 },
    })
    expect(copied.curl).toBeNull()
    expect(copied.cli).toBe(
      `rag-console --user bob@example.com --tags '["department:engineering"]' call --server everything --tool get-sum --args '{"a":1,"b":2}'`,
    )
  })

  it('saves requests in the data folder without secret values', async () => {
    const saved = await ok('workbench:saved-save', {
      server: 'everything',
      tool: 'echo',
      name: 'with a key',
      arguments: { message: 'hi', api_key: 'sk-live-0123456789abcdef' },
    })
    const file = readFileSync(join(dir, 'data', 'workbench', 'saved-requests.json'), 'utf8')
    expect(file).not.toContain('sk-live-0123456789abcdef')
    expect(file).toContain('"message": "hi"')
    expect((await ok('workbench:saved-list', { server: 'everything' })).requests).toEqual([saved])
    expect(await ok('workbench:saved-delete', { id: saved.id })).toEqual({ deleted: true })
  })
})
