import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adapterFor, detect } from '#core/dialects/registry'
import { connectStdio, type StdioSession } from './support/dialects/sdk-session'
import { testConfig } from './support/dialects/recording-session'
import type { CallOptions, RawToolResult, ServerSession } from '#core/pool/types'
import type { ActingUser } from '#shared/model/user'
import type { DialectId, ToolInfo } from '#shared/model/server'
import { DEMO_USERS } from '#demo/access'
import { LEGAL_CAPABILITY_TOKEN, RAGBOX_KEYS, RAG_SEARCH_API_KEY } from '#demo/keys'
import { demoScript, startDemo, type DemoProcess } from './support/demo/programs'

/**
 * The console's own dialect adapters read every demo server without a contract violation.
 * Until the connection pool lands, a minimal raw-HTTP session stands in for it: one POST per
 * JSON-RPC request (vtex: to the per-method endpoint), user headers per call.
 */
function httpSession(
  serverId: string,
  endpoint: (method: string) => string,
  headers: Record<string, string>,
  tools: ToolInfo[] = [],
): ServerSession & { tools: ToolInfo[] } {
  let id = 0
  const post = async (method: string, params: unknown, options: CallOptions): Promise<unknown> => {
    const user = options.user
    const userHeaders: Record<string, string> = user
      ? {
          'x-user-id': user.userId,
          'x-session-tags': JSON.stringify(user.sessionTags),
          ...(user.humanUid ? { 'x-human-uid': user.humanUid } : {}),
        }
      : {}
    const response = await fetch(endpoint(method), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...headers,
        ...userHeaders,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    })
    const body = (await response.json()) as { result?: unknown; error?: { message: string } }
    if (body.error) throw new Error(`${serverId}: ${body.error.message}`)
    return body.result
  }
  const session = {
    serverId,
    config: testConfig(serverId),
    tools,
    callTool: async (name: string, args: Record<string, unknown>, options: CallOptions) =>
      (await post('tools/call', { name, arguments: args }, options)) as RawToolResult,
    request: (method: string, params: Record<string, unknown> | undefined, options: CallOptions) =>
      post(method, params, options),
  }
  return session
}

async function withTools(session: ServerSession & { tools: ToolInfo[] }): Promise<ServerSession> {
  const listed = (await session.request('tools/list', undefined, { operation: 'tools/list' })) as {
    tools: ToolInfo[]
  }
  session.tools = listed.tools
  return session
}

const asUser = (id: string): CallOptions => {
  const user = DEMO_USERS.find((candidate) => candidate.id === id)!
  const acting: ActingUser = { userId: user.id, sessionTags: user.sessionTags, groups: user.groups }
  return { operation: 'search', user: acting }
}

describe('console dialect adapters against the demo servers', () => {
  let demo: DemoProcess
  const url = (program: string): string =>
    /(http:\/\/\S+)/.exec(demo.output.find((line) => line.startsWith(`${program} `))!)![1]!

  beforeAll(async () => {
    demo = await startDemo(['all', '--port-base', '0'])
  })
  afterAll(() => demo?.stop())

  const detected = (session: ServerSession): DialectId | null => detect(session.tools).id

  it('rag-search: detected, searched and verified without violations', async () => {
    const session = await withTools(
      httpSession('knowledgeSearch', () => url('rag-search'), {
        authorization: `Bearer ${RAG_SEARCH_API_KEY}`,
      }),
    )
    expect(detected(session)).toBe('rag-search')
    const adapter = adapterFor('rag-search')
    const found = await adapter.search(
      session,
      { query: 'incident response', phrases: ['on-call paging'], topK: 10, sources: [] },
      asUser('bob@example.com'),
    )
    expect(found.violations).toEqual([])
    expect(found.hits.length).toBeGreaterThan(0)
    const access = await adapter.verifyAccess!(
      session,
      found.hits[0]!.id,
      asUser('bob@example.com'),
    )
    expect(access).toMatchObject({ hasAccess: true, checked: true, violations: [] })
    const deleted = await adapter.verifyAccess!(
      session,
      'it-backups-faq#0',
      asUser('bob@example.com'),
    )
    expect(deleted).toMatchObject({ hasAccess: false, error: 'Document has been deleted' })
  })

  describe('rag-tools-v1 over stdio', () => {
    let session: StdioSession
    beforeAll(async () => {
      session = await connectStdio({
        serverId: 'companyDocs',
        command: process.execPath,
        args: [demoScript(), 'rag-tools-v1', '--stdio', '--doc-host', 'http://127.0.0.1:0'],
      })
    })
    afterAll(() => session?.close())

    it('is detected and discovers resources per user', async () => {
      expect(detected(session)).toBe('rag-tools-v1')
      const adapter = adapterFor('rag-tools-v1')
      const alice = await adapter.discover(session, asUser('alice@example.com'))
      expect(alice.violations).toEqual([])
      expect(alice.resources.map((resource) => resource.id)).toEqual(['handbook', 'sales'])
      const carol = await adapter.discover(session, asUser('carol@example.com'))
      expect(carol.resources.find((resource) => resource.id === 'legal')).toMatchObject({
        authMode: 'capability',
        authRequired: true,
      })
    })

    it('searches with partial results and per-source errors, and synthesizes', async () => {
      const adapter = adapterFor('rag-tools-v1')
      const found = await adapter.search(
        session,
        { query: 'paid time off', phrases: [], topK: 5, sources: ['handbook', 'legal', 'nope'] },
        asUser('alice@example.com'),
      )
      expect(found.violations).toEqual([])
      expect(found.hits.length).toBeGreaterThan(0)
      expect(found.sourceErrors.map((error) => error.sourceId).sort()).toEqual(['legal', 'nope'])
      const granted = await adapter.search(
        session,
        {
          query: 'master services agreement',
          phrases: [],
          topK: 5,
          sources: ['legal'],
          capabilityTokens: { legal: LEGAL_CAPABILITY_TOKEN },
        },
        asUser('carol@example.com'),
      )
      expect(granted.sourceErrors).toEqual([])
      expect(granted.hits.length).toBeGreaterThan(0)
      const answer = await adapter.synthesize!(
        session,
        { query: 'How many days of paid time off?', topK: 3, sources: ['handbook'] },
        asUser('bob@example.com'),
      )
      expect(answer.violations).toEqual([])
      expect(answer.citations.length).toBeGreaterThan(0)
    })
  })

  it('ragbox: detected, searched, answered and silent without violations', async () => {
    const session = await withTools(
      httpSession('documentVault', () => url('ragbox'), { 'x-api-key': RAGBOX_KEYS.acme }),
    )
    expect(detected(session)).toBe('ragbox')
    const adapter = adapterFor('ragbox')
    const found = await adapter.search(
      session,
      { query: 'discount approval', phrases: [], topK: 5, sources: [] },
      asUser('alice@example.com'),
    )
    expect(found.violations).toEqual([])
    expect(found.hits.length).toBeGreaterThan(0)
    const input = { topK: 3, sources: [] }
    const answer = await adapter.synthesize!(
      session,
      { ...input, query: 'How many days of paid time off do employees accrue?' },
      asUser('alice@example.com'),
    )
    expect(answer.silence).toBeUndefined()
    expect(answer.violations).toEqual([])
    const silent = await adapter.synthesize!(
      session,
      { ...input, query: 'What is the boiling point of tungsten on Mars?' },
      asUser('alice@example.com'),
    )
    expect(silent.silence?.reason).toMatch(/\w/)
  })

  it('vtex: detected, described, discovered and searched on per-method endpoints', async () => {
    const session = await withTools(
      httpSession('productCatalog', (method) => `${url('vtex')}/${method}`, {}),
    )
    expect(detected(session)).toBe('vtex')
    const adapter = adapterFor('vtex')
    const described = await adapter.describe!(session, asUser('bob@example.com'))
    expect(described.violations).toEqual([])
    const discovered = await adapter.discover(session, asUser('bob@example.com'))
    expect(discovered.violations).toEqual([])
    expect(discovered.resources.length).toBeGreaterThan(3)
    const found = await adapter.search(
      session,
      { query: 'webhooks', phrases: [], topK: 5, sources: [] },
      asUser('bob@example.com'),
    )
    expect(found.violations).toEqual([])
    expect(found.hits.length).toBeGreaterThan(0)
  })
})
