import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RAGBOX_KEYS } from '../keys'
import {
  postJson,
  startDemo,
  toolCallMessage,
  type DemoProcess,
  type HttpReply,
} from '#test/support/demo/programs'

const key = (value: string) => ({ 'x-api-key': value })
const textOf = (reply: HttpReply): unknown => {
  const result = reply.body!.result as { content: Array<{ type: string; text: string }> }
  expect(result.content[0]!.type).toBe('text')
  return JSON.parse(result.content[0]!.text)
}

describe('ragbox demo server (built, HTTP)', () => {
  let server: DemoProcess
  const call = (name: string, args: Record<string, unknown>, apiKey: string = RAGBOX_KEYS.acme) =>
    postJson(server.url, toolCallMessage(name, args), key(apiKey))

  beforeAll(async () => {
    server = await startDemo([
      'ragbox',
      '--port',
      '0',
      '--rate-limit',
      '1000',
      '--query-rate-limit',
      '1000',
    ])
  })
  afterAll(() => server?.stop())

  it('refuses a missing or malformed X-API-Key with -32000 and HTTP 401', async () => {
    const missing = await postJson(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(missing.status).toBe(401)
    expect(missing.body).toMatchObject({ error: { code: -32000 } })
    const malformed = await postJson(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      key('rbx_live_123'),
    )
    expect(malformed.status).toBe(401)
    const unknown = await postJson(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      key(`rbx_live_${'0'.repeat(64)}`),
    )
    expect(unknown.status).toBe(401)
  })

  it('sends X-RateLimit headers on every response, errors included', async () => {
    const first = await call('list_documents', { limit: 1 })
    const second = await call('list_documents', { limit: 1 })
    const refused = await postJson(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    for (const reply of [first, second, refused]) {
      expect(Number(reply.headers.get('x-ratelimit-limit'))).toBe(1000)
      expect(Number(reply.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000)
    }
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    )
  })

  it('lists exactly the four spec tools', async () => {
    const reply = await postJson(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      key(RAGBOX_KEYS.acme),
    )
    const tools = (reply.body!.result as { tools: Array<{ name: string }> }).tools
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_documents',
      'get_document',
      'query_knowledge',
      'list_documents',
    ])
  })

  it('returns search results as a JSON array inside content[0].text', async () => {
    const results = textOf(
      await call('search_documents', { query: 'discount approval', limit: 3 }),
    ) as Array<Record<string, unknown>>
    expect(results.length).toBe(3)
    expect(Object.keys(results[0]!).sort()).toEqual([
      'id',
      'relevance',
      'security_tier',
      'snippet',
      'title',
    ])
    expect(results[0]!.id).toMatch(/^doc_[0-9a-f]{8}$/)
    expect(results[0]!.relevance as number).toBeGreaterThanOrEqual(results[2]!.relevance as number)
  })

  it('answers with sources when confident and keeps silent with a reason when not', async () => {
    const answer = textOf(
      await call('query_knowledge', {
        query: 'How many days of paid time off do employees accrue?',
      }),
    )
    expect(answer).toMatchObject({ silence: false })
    expect((answer as { answer: string }).answer).toMatch(/paid time off/)
    expect((answer as { confidence: number }).confidence).toBeGreaterThanOrEqual(0.6)
    expect((answer as { sources: unknown[] }).sources.length).toBeGreaterThan(0)
    const silent = textOf(
      await call('query_knowledge', { query: 'What is the boiling point of tungsten on Mars?' }),
    )
    expect(silent).toMatchObject({ answer: '', sources: [], silence: true })
    expect((silent as { silence_reason: string }).silence_reason).toMatch(/\w/)
  })

  it('keeps privileged documents behind an elevated key', async () => {
    const query = { query: 'master services agreement liability', limit: 10 }
    const standard = textOf(await call('search_documents', query)) as Array<{
      security_tier: string
    }>
    expect(standard.some((doc) => doc.security_tier === 'privileged')).toBe(false)
    const refused = await call('search_documents', { ...query, privilege_mode: true })
    expect((refused.body!.result as { isError?: boolean }).isError).toBe(true)
    const elevated = textOf(
      await call('search_documents', { ...query, privilege_mode: true }, RAGBOX_KEYS.acmeElevated),
    ) as Array<{
      id: string
      security_tier: string
    }>
    const privileged = elevated.find((doc) => doc.security_tier === 'privileged')
    expect(privileged).toBeDefined()
    expect((await call('get_document', { document_id: privileged!.id })).body).toMatchObject({
      result: { isError: true },
    })
    expect(
      textOf(await call('get_document', { document_id: privileged!.id }, RAGBOX_KEYS.acmeElevated)),
    ).toMatchObject({
      id: privileged!.id,
      security_tier: 'privileged',
    })
  })

  it('isolates vaults by key', async () => {
    const acme = textOf(await call('list_documents', { limit: 1 })) as { total: number }
    const globex = textOf(await call('list_documents', { limit: 100 }, RAGBOX_KEYS.globex)) as {
      total: number
      documents: Array<{ filename: string }>
    }
    expect(globex.total).not.toBe(acme.total)
    const search = { query: 'paid time off policy', limit: 20 }
    const titles = async (apiKey: string) =>
      (textOf(await call('search_documents', search, apiKey)) as Array<{ title: string }>).map(
        (doc) => doc.title,
      )
    expect(await titles(RAGBOX_KEYS.acme)).toContain('Paid Time Off Policy')
    expect(
      (await titles(RAGBOX_KEYS.globex)).some((title) => title.includes('Paid Time Off')),
    ).toBe(false)
  })

  it('returns the very long document in full with include_content', async () => {
    const [hit] = textOf(
      await call('search_documents', { query: 'information security policy full text', limit: 1 }),
    ) as Array<{ id: string }>
    const doc = textOf(
      await call('get_document', { document_id: hit!.id, include_content: true }),
    ) as { content: string; pages: number }
    expect(doc.content.length).toBeGreaterThan(80_000)
    expect(doc.pages).toBeGreaterThan(20)
  })

  it('maps bad arguments and unknown methods to the spec error table', async () => {
    const badLimit = await call('search_documents', { query: 'x', limit: 99 })
    expect(badLimit.status).toBe(400)
    expect(badLimit.body).toMatchObject({ error: { code: -32602 } })
    const unknown = await postJson(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'nope' },
      key(RAGBOX_KEYS.acme),
    )
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ error: { code: -32601 } })
    const parse = await postJson(server.url, '{not json', key(RAGBOX_KEYS.acme))
    expect(parse.status).toBe(400)
    expect(parse.body).toMatchObject({ error: { code: -32700 } })
  })

  it('works with the SDK client over streamable HTTP with the key header', async () => {
    const client = new Client({ name: 'demo-test', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: key(RAGBOX_KEYS.acme) },
      }),
    )
    try {
      const result = await client.callTool({ name: 'list_documents', arguments: { limit: 2 } })
      const [block] = result.content as Array<{ text: string }>
      expect((JSON.parse(block!.text) as { documents: unknown[] }).documents).toHaveLength(2)
    } finally {
      await client.close()
    }
  })
})

describe('ragbox rate limits (built, HTTP)', () => {
  let server: DemoProcess
  beforeAll(async () => {
    server = await startDemo([
      'ragbox',
      '--port',
      '0',
      '--rate-limit',
      '3',
      '--query-rate-limit',
      '1',
    ])
  })
  afterAll(() => server?.stop())

  it('refuses query_knowledge beyond its own limit with -32001', async () => {
    const query = toolCallMessage('query_knowledge', { query: 'vpn' })
    expect((await postJson(server.url, query, key(RAGBOX_KEYS.acmeElevated))).status).toBe(200)
    const limited = await postJson(server.url, query, key(RAGBOX_KEYS.acmeElevated))
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({ error: { code: -32001 } })
  })

  it('answers 429 / -32001 with Retry-After once the per-key limit is used up', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
    const replies: HttpReply[] = []
    for (let i = 0; i < 4; i++)
      replies.push(await postJson(server.url, list, key(RAGBOX_KEYS.acme)))
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 429])
    expect(replies.map((reply) => reply.headers.get('x-ratelimit-remaining'))).toEqual([
      '2',
      '1',
      '0',
      '0',
    ])
    expect(replies[3]!.body).toMatchObject({ error: { code: -32001 } })
    expect(Number(replies[3]!.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another key has its own budget.
    expect((await postJson(server.url, list, key(RAGBOX_KEYS.globex))).status).toBe(200)
  })
})
