import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  postJson,
  startDemo,
  toolCallMessage,
  type DemoProcess,
  type HttpReply,
} from '#test/support/demo/programs'

interface SearchPayload {
  results: Array<{ id: string; title: string; category: string; tags: string[]; author: string }>
  total: number
  hasMore: boolean
  query: Record<string, unknown>
}

const payloadOf = (reply: HttpReply): SearchPayload => {
  const result = reply.body!.result as { content: Array<{ type: string; text: string }> }
  return JSON.parse(result.content[0]!.text) as SearchPayload
}

describe('vtex demo server (built, per-method endpoints)', () => {
  let server: DemoProcess
  const at = (endpoint: string, message: unknown) => postJson(`${server.url}/${endpoint}`, message)

  beforeAll(async () => {
    server = await startDemo(['vtex', '--port', '0'])
  })
  afterAll(() => server?.stop())

  it('answers the non-standard handshake', async () => {
    const reply = await at('handshake', {
      jsonrpc: '2.0',
      id: 1,
      method: 'handshake',
      params: { version: '1.0.0' },
    })
    expect(reply.body).toMatchObject({
      id: 1,
      result: {
        version: '1.0.0',
        compatible: true,
        capabilities: ['resources', 'tools', 'logging'],
      },
    })
    const old = await at('handshake', {
      jsonrpc: '2.0',
      id: 2,
      method: 'handshake',
      params: { version: '2.0.0' },
    })
    expect(old.body).toMatchObject({ result: { compatible: false } })
  })

  it('serves each method on its own endpoint with plain JSON and no session', async () => {
    const init = await at('initialize', {
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: {
        protocolVersion: '2024-11-05',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    })
    expect(init.headers.get('content-type')).toMatch(/^application\/json/)
    expect(init.headers.get('mcp-session-id')).toBeNull()
    expect(init.body).toMatchObject({
      result: { protocolVersion: '2024-11-05', serverInfo: { name: 'VTEX IO RAG Server' } },
    })
    const tools = await at('tools/list', { jsonrpc: '2.0', id: 3, method: 'tools/list' })
    expect(tools.body).toMatchObject({ result: { tools: [{ name: 'search_documents' }] } })
  })

  it('answers notifications/initialized with no body', async () => {
    const reply = await at('notifications/initialized', {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    })
    expect(reply.status).toBe(204)
    expect(reply.text).toBe('')
  })

  it('returns search results as JSON text with total, hasMore and the query echoed', async () => {
    const reply = await at(
      'tools/call',
      toolCallMessage('search_documents', { query: 'webhooks', limit: 2 }),
    )
    const payload = payloadOf(reply)
    expect(payload.results).toHaveLength(2)
    expect(payload.results[0]!.id).toMatch(/^pd-webhooks-/)
    expect(payload.total).toBeGreaterThan(2)
    expect(payload.hasMore).toBe(true)
    expect(payload.query).toEqual({ query: 'webhooks', limit: 2 })
  })

  it('filters by category, tags and author without a query', async () => {
    const faq = payloadOf(
      await at('tools/call', toolCallMessage('search_documents', { category: 'FAQ', limit: 100 })),
    )
    expect(faq.total).toBeGreaterThan(0)
    expect(faq.results.every((doc) => doc.category === 'FAQ')).toBe(true)
    const tagged = payloadOf(
      await at(
        'tools/call',
        toolCallMessage('search_documents', { tags: ['webhooks'], author: 'platform' }),
      ),
    )
    expect(
      tagged.results.every(
        (doc) => doc.tags.includes('webhooks') && doc.author === 'Platform Team',
      ),
    ).toBe(true)
    expect(tagged.total).toBeGreaterThan(0)
  })

  it('lists and reads rag:// resources', async () => {
    const list = await at('resources/list', { jsonrpc: '2.0', id: 5, method: 'resources/list' })
    const uris = (list.body!.result as { resources: Array<{ uri: string }> }).resources.map(
      (resource) => resource.uri,
    )
    expect(uris.slice(0, 3)).toEqual(['rag://documents', 'rag://categories', 'rag://tags'])
    expect(uris).toContain('rag://documents/category/Product')
    expect(uris).toContain('rag://documents/tag/pricing')
    const read = await at('resources/read', {
      jsonrpc: '2.0',
      id: 6,
      method: 'resources/read',
      params: { uri: 'rag://documents/category/Product' },
    })
    const [content] = (
      read.body!.result as { contents: Array<{ uri: string; mimeType: string; text: string }> }
    ).contents
    expect(content).toMatchObject({
      uri: 'rag://documents/category/Product',
      mimeType: 'application/json',
    })
    const payload = JSON.parse(content!.text) as {
      category: string
      documents: Array<{ category: string }>
      total: number
    }
    expect(payload.category).toBe('Product')
    expect(payload.documents.every((doc) => doc.category === 'Product')).toBe(true)
  })

  it('routes any method through the generic /mcp/:instance router', async () => {
    const router = `${server.url}/my-store`
    const handshake = await postJson(router, {
      jsonrpc: '2.0',
      id: 1,
      method: 'handshake',
      params: {},
    })
    expect(handshake.body).toMatchObject({ result: { compatible: true } })
    const read = await postJson(router, {
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/read',
      params: { uri: 'rag://categories' },
    })
    expect(read.body).toMatchObject({ result: { contents: [{ uri: 'rag://categories' }] } })
  })

  it('reports errors with data.httpStatusCode', async () => {
    const mismatch = await at('tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/call' })
    expect(mismatch.body).toMatchObject({ error: { code: -32600, data: { httpStatusCode: 400 } } })
    const unknown = await postJson(`${server.url}/x`, { jsonrpc: '2.0', id: 2, method: 'nope' })
    expect(unknown.body).toMatchObject({ error: { code: -32601, data: { httpStatusCode: 404 } } })
    const missing = await at('resources/read', {
      jsonrpc: '2.0',
      id: 3,
      method: 'resources/read',
      params: { uri: 'rag://nope' },
    })
    expect(missing.body).toMatchObject({ error: { code: -32602 } })
  })

  it('offers no GET stream', async () => {
    expect((await fetch(`${server.url}/my-store`)).status).toBe(405)
  })

  it('works with the SDK client pointed at the router', async () => {
    const client = new Client({ name: 'demo-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/sdk`)))
    try {
      const { resources } = await client.listResources()
      expect(resources.length).toBeGreaterThan(3)
      const result = await client.callTool({
        name: 'search_documents',
        arguments: { query: 'vpn', limit: 1 },
      })
      expect((result.content as Array<{ text: string }>)[0]!.text).toContain('"results"')
    } finally {
      await client.close()
    }
  })
})
