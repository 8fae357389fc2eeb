import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPIRED_LEGAL_CAPABILITY_TOKEN, LEGAL_CAPABILITY_TOKEN } from '../keys'
import { OWN_DOC_HOST, demoScript, startDemo, type DemoProcess } from '#test/support/demo/programs'

interface ReportedError {
  code: string
  message: string
  source?: string
}
interface Envelope {
  results: Record<string, unknown> & { error?: ReportedError | ReportedError[] }
  meta_data: Record<string, unknown>
  artifacts?: Array<{ name: string; mime: string; b64: string }>
}
interface Hit {
  id: string
  resourceId: string
  score: number
  uri?: string
  title: string
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Envelope> {
  const result = await client.callTool({ name, arguments: args })
  const content = result.content as Array<{ type: string; text: string }>
  const envelope = result.structuredContent as unknown as Envelope
  // The same envelope travels as structuredContent and as JSON text.
  expect(JSON.parse(content[0]!.text)).toEqual(envelope)
  return envelope
}
const resourceIds = (envelope: Envelope): string[] =>
  (envelope.results.resources as Array<{ id: string }>).map((resource) => resource.id)
const hitsOf = (envelope: Envelope): Hit[] => envelope.results.hits as Hit[]

describe('rag-tools-v1 demo server over stdio (built, child process)', () => {
  let client: Client

  beforeAll(async () => {
    client = new Client({ name: 'demo-test', version: '1.0.0' })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [demoScript(), 'rag-tools-v1', '--stdio', '--doc-host', 'http://docs.test'],
      stderr: 'ignore',
    })
    await client.connect(transport)
  })
  afterAll(() => client?.close())

  it('lists the three tools with username as an argument', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      'rag_discover_resources',
      'rag_get_raw_results',
      'rag_get_synthesized_results',
    ])
    for (const tool of tools) expect(tool.inputSchema.required).toContain('username')
  })

  it('discovers different resources for users in different groups', async () => {
    expect(
      resourceIds(await call(client, 'rag_discover_resources', { username: 'alice@example.com' })),
    ).toEqual(['handbook', 'sales'])
    const carol = await call(client, 'rag_discover_resources', { username: 'carol@example.com' })
    expect(resourceIds(carol)).toEqual(['handbook', 'legal', 'sales'])
    const legal = (carol.results.resources as Array<Record<string, unknown>>).find(
      (resource) => resource.id === 'legal',
    )
    expect(legal).toMatchObject({
      authRequired: true,
      authMode: 'capability',
      groups: ['legal', 'admin'],
    })
    expect(
      resourceIds(
        await call(client, 'rag_discover_resources', { username: 'dan@contractor.example' }),
      ),
    ).toEqual([])
  })

  it('answers an unknown user with unauthorized_user', async () => {
    const envelope = await call(client, 'rag_get_raw_results', {
      username: 'mallory@example.com',
      query: 'pto',
    })
    expect(envelope.results.error).toMatchObject({ code: 'unauthorized_user' })
    expect(envelope.results.hits).toEqual([])
  })

  it('returns partial hits next to unauthorized_source and invalid_source', async () => {
    const envelope = await call(client, 'rag_get_raw_results', {
      username: 'alice@example.com',
      query: 'liability cap and paid time off',
      sources: ['handbook', 'legal', 'nope'],
      top_k: 5,
    })
    const hits = hitsOf(envelope)
    expect(hits.length).toBeGreaterThan(0)
    expect(hits.every((hit) => hit.resourceId === 'handbook')).toBe(true)
    expect(envelope.results.error).toMatchObject([
      { code: 'unauthorized_source', source: 'legal' },
      { code: 'invalid_source', source: 'nope' },
    ])
    expect(envelope.results.stats).toMatchObject({ top_k: 5 })
  })

  it('opens the capability source only with a valid capability_token', async () => {
    const args = {
      username: 'carol@example.com',
      query: 'master services agreement',
      sources: ['legal'],
    }
    const without = await call(client, 'rag_get_raw_results', args)
    expect(without.results.error).toMatchObject({ code: 'unauthorized_source' })
    const expired = await call(client, 'rag_get_raw_results', {
      ...args,
      capability_token: EXPIRED_LEGAL_CAPABILITY_TOKEN,
    })
    expect(expired.results.error).toMatchObject({ code: 'token_expired' })
    const granted = await call(client, 'rag_get_raw_results', {
      ...args,
      capability_token: LEGAL_CAPABILITY_TOKEN,
    })
    expect(granted.results.error).toBeUndefined()
    expect(hitsOf(granted).some((hit) => hit.id.startsWith('lg-msa-'))).toBe(true)
  })

  it('hides a document revoked for the user', async () => {
    const args = { query: 'enterprise deals playbook', sources: ['sales'], top_k: 10 }
    const ids = async (username: string) =>
      hitsOf(await call(client, 'rag_get_raw_results', { ...args, username })).map((hit) => hit.id)
    expect(
      (await ids('alice@example.com')).some((id) => id.startsWith('sl-enterprise-deals-playbook')),
    ).toBe(false)
    expect(
      (await ids('carol@example.com')).some((id) => id.startsWith('sl-enterprise-deals-playbook')),
    ).toBe(true)
  })

  it('gives hits the required fields, scores in [0, 1] and user-signed links for restricted sources', async () => {
    const envelope = await call(client, 'rag_get_raw_results', {
      username: 'alice@example.com',
      query: 'discount approval',
      sources: ['sales'],
    })
    const [hit] = hitsOf(envelope)
    expect(hit).toMatchObject({ resourceId: 'sales' })
    expect(hit!.score).toBeGreaterThan(0)
    expect(hit!.score).toBeLessThanOrEqual(1)
    const uri = new URL(hit!.uri!)
    expect(uri.origin).toBe('http://docs.test')
    expect(uri.searchParams.get('u')).toBe('alice@example.com')
  })

  it('synthesizes an answer with numbered citations and an HTML artifact', async () => {
    const envelope = await call(client, 'rag_get_synthesized_results', {
      username: 'bob@example.com',
      query: 'How many days of paid time off do employees accrue?',
      sources: ['handbook'],
    })
    expect(envelope.results.answer).toMatch(/accrue \d+ days of paid time off.*\[1\]/)
    expect((envelope.results.citations as unknown[]).length).toBeGreaterThan(0)
    expect(envelope.results.limits).toEqual({ truncated: false })
    const [artifact] = envelope.artifacts!
    expect(artifact).toMatchObject({ name: 'synthesis-report.html', mime: 'text/html' })
    expect(Buffer.from(artifact!.b64, 'base64').toString('utf8')).toContain('paid time off')
  })

  it('reports truncation when the answer exceeds max_chars', async () => {
    const envelope = await call(client, 'rag_get_synthesized_results', {
      username: 'bob@example.com',
      query: 'paid time off',
      synthesis_params: { max_chars: 40 },
    })
    expect((envelope.results.answer as string).length).toBeLessThanOrEqual(40)
    expect(envelope.results.limits).toMatchObject({ truncated: true })
  })
})

describe('rag-tools-v1 demo server over legacy SSE (built, child process)', () => {
  let server: DemoProcess
  let client: Client

  beforeAll(async () => {
    server = await startDemo(['rag-tools-v1', '--port', '0', ...OWN_DOC_HOST])
    client = new Client({ name: 'demo-test', version: '1.0.0' })
    await client.connect(new SSEClientTransport(new URL(server.url)))
  })
  afterAll(async () => {
    await client?.close()
    await server?.stop()
  })

  it('serves the engineering slice to a contractor only where groups allow', async () => {
    expect(
      resourceIds(
        await call(client, 'rag_discover_resources', { username: 'dan@contractor.example' }),
      ),
    ).toEqual(['it-kb', 'product'])
    expect(
      resourceIds(await call(client, 'rag_discover_resources', { username: 'bob@example.com' })),
    ).toEqual(['it-kb', 'engineering', 'product', 'legacy-wiki'])
  })

  it('answers backend_unavailable for the archived source', async () => {
    const envelope = await call(client, 'rag_get_raw_results', {
      username: 'bob@example.com',
      query: 'mail server migration',
      sources: ['legacy-wiki'],
    })
    expect(envelope.results.error).toMatchObject({ code: 'backend_unavailable' })
  })

  it('issues signed links that the document host opens for that user', async () => {
    const envelope = await call(client, 'rag_get_raw_results', {
      username: 'bob@example.com',
      query: 'feature flags kill switch',
      sources: ['engineering'],
    })
    const signed = hitsOf(envelope).find((hit) => hit.uri?.includes('sig='))
    expect(signed?.uri?.startsWith(server.docs!)).toBe(true)
    expect((await fetch(signed!.uri!)).status).toBe(200)
  })
})
