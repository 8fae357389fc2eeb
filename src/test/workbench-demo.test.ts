import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { RAG_SEARCH_API_KEY, RAGBOX_KEYS } from '#demo/keys'
import { startDemo, type DemoProcess } from './support/demo/programs'
import type { OAuthStatus } from '#shared/ipc/auth'
import type { IpcResponse } from '#shared/ipc/wire'
import type { InvokeChannel, InvokeResult } from '#shared/ipc/contract'
import type { PendingElicitation } from '#shared/ipc/elicitation'
import { DEMO_KEY_ENV, demoRegistry, demoUrl, writeRegistry } from './support/cli/run-cli'
import { dispatch } from '#core/api/dispatch'
import { createHandlers, type Handlers } from '#core/api/handlers'
import { createCore, type Core } from '#core/core'
import { repoRoot } from './support/process/built'
import { SAFETY_NET_MS } from './support/process/limits'

/**
 * The workbench against the demo servers over their real transports: identity and auth headers
 * in the protocol log (credentials redacted), the console's `username` for rag-tools-v1, VTEX
 * `rag://` resources, and servers tried by hand: added to the registry, signed in to with OAuth
 * (the demo's OAuth server; tokens in memory: this console has no keychain at all, so keeping
 * them anywhere else would fail the sign-in), asking for forms (a stdio fixture).
 */

const ASKER = join(repoRoot, 'src/test/fixtures/pool/elicit-stdio-server.mjs')

let demo: DemoProcess
let oauthDemo: DemoProcess
let dir: string
let configPath: string
let core: Core
let handlers: Handlers
const responses: unknown[] = []
const forms: PendingElicitation[] = []
const signIns: OAuthStatus[] = []

async function ok<C extends InvokeChannel>(
  channel: C,
  request?: unknown,
): Promise<InvokeResult<C>> {
  const response = (await dispatch(handlers, channel, request)) as IpcResponse<InvokeResult<C>>
  responses.push(response)
  if (!response.ok) throw new Error(`${channel}: ${JSON.stringify(response.error)}`)
  return response.value
}

beforeAll(async () => {
  ;[demo, oauthDemo] = await Promise.all([
    startDemo(['all', '--port-base', '0']),
    startDemo(['oauth', '--port', '0', '--approve-as', 'erin']),
  ])
  dir = mkdtempSync(join(tmpdir(), 'rc-workbench-demo-'))
  configPath = writeRegistry(dir, demoRegistry(demo))
  core = await createCore({
    configPath,
    dataDir: join(dir, 'data'),
    env: { ...process.env, ...DEMO_KEY_ENV, RAG_CONSOLE_OAUTH_OPENER: 'fetch' },
    watch: false,
    pool: { probeIntervalMs: 0 },
    logToStderr: null,
    actingUser: { userId: 'bob@example.com', sessionTags: ['department:engineering'] },
    keychain: { openEntry: () => Promise.reject(new Error('no keychain in this test')) },
    elicit: 'windows',
  })
  core.events.on('elicit:request', (form) => forms.push(form))
  core.events.on('auth:changed', (status) => signIns.push(status))
  await core.pool.applyRegistry(core.registry.current())
  handlers = createHandlers(core)
})

afterAll(async () => {
  await core?.dispose()
  await Promise.all([demo?.stop(), oauthDemo?.stop()])
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('registry servers', () => {
  it('shows the identity headers and redacts the key in the protocol log (HTTP)', async () => {
    const { isError } = await ok('workbench:call', {
      server: 'knowledgeSearch',
      tool: 'rag_search',
      arguments: { search_phrases: ['vpn setup'] },
    })
    expect(isError).toBe(false)
    const { entries } = await ok('workbench:log', { server: 'knowledgeSearch' })
    const sent = entries.find((e) => e.direction === 'out' && e.method === 'tools/call')!
    expect(sent.httpStatus).toBe(200)
    expect(sent.headers).toEqual({
      Authorization: 'Bearer [redacted]',
      'x-user-id': 'bob@example.com',
      'x-session-tags': '["department:engineering"]',
    })
    expect(JSON.stringify(responses)).not.toContain(RAG_SEARCH_API_KEY)
  })

  it('puts the acting user in `username` for rag-tools-v1, as the console does for every call', async () => {
    const { result } = await ok('workbench:call', {
      server: 'companyDocs',
      tool: 'rag_discover_resources',
      arguments: { username: 'mallory@example.com' },
    })
    expect(JSON.stringify(result)).not.toContain('unauthorized_user')
    const { entries } = await ok('workbench:log', { server: 'companyDocs' })
    const sent = entries.filter((e) => e.direction === 'out' && e.method === 'tools/call').at(-1)!
    expect(sent.text).toContain('"username":"bob@example.com"')
    expect(sent.text).not.toContain('mallory')
  })

  it('logs SSE traffic: the POST accepted with 202, the reply from the event stream', async () => {
    await ok('workbench:call', {
      server: 'engineeringWiki',
      tool: 'rag_discover_resources',
      arguments: {},
    })
    const { entries } = await ok('workbench:log', { server: 'engineeringWiki' })
    const sent = entries.filter((e) => e.direction === 'out' && e.method === 'tools/call').at(-1)!
    expect(sent).toMatchObject({ httpStatus: 202 })
    // rag-tools-v1 names the user in `username`; its family defines no identity headers.
    expect(Object.keys(sent.headers ?? {})).not.toContain('x-user-id')
    const reply = entries.find((e) => e.direction === 'in' && e.id === sent.id)
    expect(reply).toMatchObject({ kind: 'response', durationMs: expect.any(Number) })
  })

  it('does not ask a server for prompts or resources it does not declare, and says so', async () => {
    const tools = await ok('pool:tools', { server: 'documentVault' })
    expect(tools.serverInfo?.capabilities).toEqual(['tools'])
    expect(await ok('workbench:prompts', { server: 'documentVault' })).toEqual({
      items: [],
      offered: false,
      why: 'it declares no prompts capability',
    })
    expect(await ok('workbench:resources', { server: 'documentVault' })).toEqual({
      items: [],
      offered: false,
      why: 'it declares no resources capability',
    })
    const { entries } = await ok('workbench:log', { server: 'documentVault' })
    expect(entries.map((e) => e.method)).not.toContain('prompts/list')
    expect(entries.map((e) => e.method)).not.toContain('resources/list')
    const health = await ok('pool:health', { server: 'documentVault' })
    expect(health[0]!.operations.find((o) => o.errors.unsupported)).toBeUndefined()
    // A server that declares resources is asked.
    expect((await ok('pool:tools', { server: 'productCatalog' })).serverInfo?.capabilities).toEqual(
      expect.arrayContaining(['resources', 'tools']),
    )
  })

  it('lists and reads VTEX rag:// resources', async () => {
    const { items } = await ok('workbench:resources', { server: 'productCatalog' })
    const uri = String(items[0]?.uri)
    expect(uri).toMatch(/^rag:\/\//)
    const { contents } = await ok('workbench:read-resource', { server: 'productCatalog', uri })
    expect(contents[0]).toMatchObject({ uri })
  })

  it('copies an HTTP call as cURL with the key as a placeholder', async () => {
    const { curl } = await ok('workbench:copy', {
      server: 'documentVault',
      tool: 'search_documents',
      arguments: { query: 'discount' },
    })
    expect(curl).toContain(`-H "X-API-Key: \${CLI_TEST_RAGBOX_KEY}"`)
    // RAGbox defines no identity headers: the console sends none, and neither does the copy.
    expect(curl).not.toContain('x-user-id')
    expect(curl).not.toContain(RAGBOX_KEYS.acme)
    const { curl: ragSearch } = await ok('workbench:copy', {
      server: 'knowledgeSearch',
      tool: 'rag_search',
      arguments: { search_phrases: ['vpn'] },
    })
    expect(ragSearch).toContain(`-H 'x-user-id: bob@example.com'`)
  })
})

describe('a server tried without saving it', () => {
  it('connects with typed credentials that never show anywhere', async () => {
    // A header the redactor does not know by name: only the try's registration hides it.
    const token = 'q7Vx2Lk9Pz4Rt8Wm3Nc6Hb1Jd5Fg0Ys'
    const tried = await ok('workbench:try', {
      transport: 'http',
      url: demoUrl(demo, 'ragbox'),
      headers: { 'X-API-Key': RAGBOX_KEYS.acme, 'X-Upstream-Token': token },
    })
    expect(tried).toMatchObject({
      transport: 'http',
      headerNames: ['X-API-Key', 'X-Upstream-Token'],
    })
    const { isError } = await ok('workbench:call', {
      server: tried.server,
      tool: 'search_documents',
      arguments: { query: 'discount approval', limit: 2 },
    })
    expect(isError).toBe(false)
    await ok('workbench:log', { server: tried.server })
    await ok('workbench:copy', { server: tried.server, tool: 'search_documents', arguments: {} })
    expect(JSON.stringify(responses)).not.toContain(RAGBOX_KEYS.acme)
    expect(JSON.stringify(responses)).not.toContain(token)
    expect(readFileSync(configPath, 'utf8')).not.toContain(tried.server)
  })

  it('refuses to add a server with a plaintext key to the registry when there is no keychain', async () => {
    const tried = await ok('workbench:try', {
      transport: 'http',
      url: demoUrl(demo, 'ragbox'),
      headers: { 'X-API-Key': RAGBOX_KEYS.acme },
    })
    const { hash } = await core.registry.readRaw()
    const response = await dispatch(handlers, 'workbench:try-add', {
      server: tried.server,
      id: 'vault2',
      baseHash: hash,
    })
    expect(response.ok ? 'saved' : response.error.code).toBe('keychain_unavailable')
    const file = readFileSync(configPath, 'utf8')
    expect(file).not.toContain('vault2')
    expect(file).not.toContain(RAGBOX_KEYS.acme)
  })

  it('adds a server without secrets to the registry', async () => {
    const tried = await ok('workbench:try', { transport: 'http', url: demoUrl(demo, 'vtex') })
    const { hash } = await core.registry.readRaw()
    expect(
      await ok('workbench:try-add', { server: tried.server, id: 'catalog2', baseHash: hash }),
    ).toEqual({ id: 'catalog2', movedSecrets: [] })
    const file = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>
    expect(file.catalog2).toMatchObject({ transport: 'http', url: demoUrl(demo, 'vtex') })
  })

  it('behind OAuth: asks for a sign-in there, signs in with tokens in memory, then calls', async () => {
    const { server } = await ok('workbench:try', { transport: 'http', url: oauthDemo.url })
    const before = await dispatch(handlers, 'workbench:call', {
      server,
      tool: 'rag_discover_resources',
      arguments: {},
    })
    expect(before).toMatchObject({
      ok: false,
      error: {
        code: 'action_required',
        message: expect.stringContaining('use Sign in where it is tried in the Workbench'),
      },
    })
    expect(await ok('auth:status', { serverId: server })).toMatchObject([
      { serverId: server, state: 'sign_in_required' },
    ])
    // The windows hear of it, as they hear of a registry server's card.
    await vi.waitFor(() =>
      expect(signIns).toContainEqual(
        expect.objectContaining({ serverId: server, state: 'sign_in_required' }),
      ),
    )

    expect(await ok('auth:login', { serverId: server })).toMatchObject({
      serverId: server,
      state: 'signed_in',
      account: 'erin@example.com',
    })
    const call = await ok('workbench:call', {
      server,
      tool: 'rag_discover_resources',
      arguments: {},
    })
    expect(call.isError).toBe(false)

    // Closed: nothing is kept for it, and its id names no server any more.
    await ok('workbench:try-close', { server })
    expect(await dispatch(handlers, 'auth:status', { serverId: server })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
  })

  it("opens the forms it asks for in the app's windows, and the answer reaches it", async () => {
    const { server } = await ok('workbench:try', {
      transport: 'stdio',
      command: process.execPath,
      args: [ASKER],
    })
    const answered = ok('workbench:call', {
      server,
      tool: 'ask',
      arguments: { form: 'required' },
      timeoutMs: SAFETY_NET_MS,
    })
    await vi.waitFor(() => expect(forms.some((form) => form.serverId === server)).toBe(true), {
      timeout: SAFETY_NET_MS,
    })
    const form = forms.find((pending) => pending.serverId === server)!
    expect(form.message).toContain('Please fill in the required form')
    expect(
      await ok('elicit:answer', {
        id: form.id,
        answer: { action: 'accept', content: { name: 'Grace', team: 'search' } },
      }),
    ).toEqual({ answered: true })
    const { content } = (await answered).result as { content: { text: string }[] }
    expect(JSON.parse(content[0]!.text)).toEqual({
      action: 'accept',
      content: { name: 'Grace', team: 'search' },
    })
    await ok('workbench:try-close', { server })
  })
})
