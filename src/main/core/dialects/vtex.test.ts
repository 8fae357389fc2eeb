import { describe, expect, it } from 'vitest'
import * as fixture from '#test/fixtures/dialects/vtex'
import {
  RecordingSession,
  asUser,
  rpcError,
  type Reply,
} from '#test/support/dialects/recording-session'
import {
  parseHandshake,
  parseSourceRef,
  parseVtexRead,
  parseVtexResources,
  parseVtexSearch,
  vtexAdapter,
} from './vtex'

const input = { query: 'product pricing', phrases: [], topK: 10, sources: [] }
const rules = (output: { violations: { rule: string }[] }) => output.violations.map((v) => v.rule)
const vtex = (tools: Record<string, Reply>, requests: Record<string, Reply> = {}) =>
  new RecordingSession({ serverId: 'vtex', tools, requests, toolList: [fixture.specSearchTool] })

describe('vtex search_documents', () => {
  it('maps the spec example', async () => {
    const s = vtex({ search_documents: fixture.specSearch })
    const output = await vtexAdapter.search(s, input, asUser())
    expect(s.argsOf('search_documents')).toEqual([{ query: 'product pricing', limit: 10 }])
    expect(output.violations).toEqual([])
    expect(output.hits).toEqual([
      expect.objectContaining({
        server: 'vtex',
        id: 'doc123',
        sourceId: 'category/Business',
        title: 'Product Pricing Strategy',
        text: 'Our pricing strategy is based on...',
        summary: 'Comprehensive pricing strategy guide',
        snippet: 'Our pricing strategy is based on...',
        timestamp: '2024-01-20T14:30:00Z',
        provenance: {
          category: 'Business',
          tags: ['pricing', 'strategy'],
          author: 'Business Team',
        },
        derived: { title: false, summary: false },
      }),
    ])
    expect(output.hits[0]?.score).toBeUndefined()
  })

  it('passes category, tags and author filters', async () => {
    const s = vtex({ search_documents: fixture.specSearch })
    await vtexAdapter.search(
      s,
      {
        ...input,
        topK: 500,
        filters: { category: 'Business', tags: ['pricing', 7], author: 'Ann' },
      },
      asUser(),
    )
    expect(s.argsOf('search_documents')).toEqual([
      {
        query: 'product pricing',
        limit: 100,
        category: 'Business',
        author: 'Ann',
        tags: ['pricing'],
      },
    ])
  })

  it('turns each selected source into its own filtered call', async () => {
    const s = vtex({ search_documents: fixture.specSearch })
    const output = await vtexAdapter.search(
      s,
      { ...input, sources: ['category/Product', 'tag/pricing'] },
      asUser(),
    )
    expect(s.argsOf('search_documents')).toEqual([
      { query: 'product pricing', limit: 10, category: 'Product' },
      { query: 'product pricing', limit: 10, tags: ['pricing'] },
    ])
    expect(output.hits.map((hit) => hit.sourceId)).toEqual(['category/Product', 'tag/pricing'])
  })

  it('reports a selected source that failed next to the hits of the others', async () => {
    const s = vtex({
      search_documents: (args: Record<string, unknown>) =>
        args.category ? rpcError('vtex', -32002, 'Too many requests') : fixture.specSearch,
    })
    const output = await vtexAdapter.search(
      s,
      { ...input, sources: ['category/Product', 'tag/pricing'] },
      asUser(),
    )
    expect(output.hits).toHaveLength(1)
    expect(output.sourceErrors).toEqual([
      { sourceId: 'category/Product', error: expect.objectContaining({ code: 'server_error' }) },
    ])
    expect(output.raw).toEqual([null, fixture.specSearch])
  })

  it('reports a source id that is neither a category nor a tag', async () => {
    const s = vtex({ search_documents: fixture.specSearch })
    const output = await vtexAdapter.search(
      s,
      { ...input, sources: ['tag/pricing', 'bogus'] },
      asUser(),
    )
    expect(output.sourceErrors).toEqual([
      { sourceId: 'bogus', error: expect.objectContaining({ code: 'not_found' }) },
    ])
  })

  it('derives the summary when a document has none', () => {
    const [hit] = parseVtexSearch(fixture.minimalSearch, 's').hits
    expect(hit).toMatchObject({
      summary: 'Refunds take five days. Exchanges are instant.',
      derived: { title: false, summary: true },
    })
  })
})

describe('vtex reply violations', () => {
  it('reports a reply without results', () => {
    expect(parseVtexSearch(fixture.broken.noResults, 's').violations).toEqual([
      expect.objectContaining({ rule: 'missing_field', path: 'content[0].text.results' }),
    ])
  })

  it('reads a bare array but reports the envelope', () => {
    const output = parseVtexSearch(fixture.broken.arrayInsteadOfObject, 's')
    expect(rules(output)).toEqual(['unexpected_envelope'])
    expect(output.hits).toHaveLength(1)
  })

  it('reports a document without id', () => {
    expect(parseVtexSearch(fixture.broken.missingId, 's').violations[0]).toMatchObject({
      rule: 'missing_field',
      path: 'content[0].text.results[0].id',
    })
  })

  it('reports tags that are not an array', () => {
    expect(parseVtexSearch(fixture.broken.tagsWrongType, 's').violations[0]).toMatchObject({
      rule: 'wrong_type',
      path: 'content[0].text.results[0].tags',
      value: 'pricing',
    })
  })

  it('reports truncated JSON', () => {
    expect(rules(parseVtexSearch(fixture.broken.unparsable, 's'))).toEqual(['unparsable_json'])
  })
})

describe('vtex discovery from resources/list', () => {
  it('makes category and tag resources data sources and skips the rest', async () => {
    const s = vtex({}, { 'resources/list': fixture.specResourcesList })
    const output = await vtexAdapter.discover(s, asUser())
    expect(output.violations).toEqual([])
    expect(output.resources).toEqual([
      {
        server: 'vtex',
        id: 'category/Product',
        name: 'Product Documents',
        description: 'Documents in the Product category',
        sourceType: 'category',
        authRequired: false,
        authMode: 'none',
        groups: [],
        scopes: [],
        defaultSelected: false,
        uri: 'rag://documents/category/Product',
      },
      expect.objectContaining({
        id: 'tag/pricing',
        sourceType: 'tag',
        uri: 'rag://documents/tag/pricing',
      }),
    ])
  })

  it('follows nextCursor pages', async () => {
    const s = vtex(
      {},
      {
        'resources/list': (params: Record<string, unknown>) =>
          params.cursor
            ? { resources: [{ uri: 'rag://documents/tag/b', name: 'b' }] }
            : { resources: [{ uri: 'rag://documents/tag/a', name: 'a' }], nextCursor: 'p2' },
      },
    )
    const output = await vtexAdapter.discover(s, asUser())
    expect(s.argsOf('resources/list')).toEqual([undefined, { cursor: 'p2' }])
    expect(output.resources.map((r) => r.id)).toEqual(['tag/a', 'tag/b'])
  })

  it('reports a resource without uri', () => {
    expect(parseVtexResources(fixture.broken.resourceWithoutUri, 's').violations).toEqual([
      expect.objectContaining({ rule: 'missing_field', path: 'resources[0].uri' }),
    ])
  })

  it('decodes percent-encoded source names and rejects other URIs', () => {
    expect(parseSourceRef('rag://documents/tag/price%20list')).toEqual({
      kind: 'tag',
      value: 'price list',
    })
    expect(parseSourceRef('category/FAQ')).toEqual({ kind: 'category', value: 'FAQ' })
    expect(parseSourceRef('rag://categories')).toBeUndefined()
  })
})

describe('vtex resources/read', () => {
  it('reads a category source in full as hits', async () => {
    const s = vtex({}, { 'resources/read': fixture.specResourcesRead })
    const output = await vtexAdapter.read?.(s, 'category/Product', asUser())
    expect(s.argsOf('resources/read')).toEqual([{ uri: 'rag://documents/category/Product' }])
    expect(output?.violations).toEqual([])
    expect(output?.hits[0]).toMatchObject({
      id: 'doc123',
      sourceId: 'category/Product',
      title: 'Product Catalog Guide',
      summary: 'Complete product catalog documentation',
    })
  })

  it('reports contents whose text is not JSON', () => {
    const raw = { contents: [{ uri: 'rag://documents/tag/x', text: 'oops' }] }
    expect(parseVtexRead(raw, 's').violations[0]).toMatchObject({
      rule: 'unparsable_json',
      path: 'contents[0].text',
    })
  })

  it('refuses a ref that is not a document source', async () => {
    const s = vtex({}, { 'resources/read': fixture.specResourcesRead })
    await expect(vtexAdapter.read?.(s, 'rag://tags', asUser())).rejects.toMatchObject({
      code: 'invalid_argument',
    })
    expect(s.calls).toEqual([])
  })
})

describe('vtex handshake', () => {
  it('asks for the handshake and reports it in server info', async () => {
    const s = vtex({}, { handshake: fixture.specHandshake })
    const described = await vtexAdapter.describe?.(s, asUser(undefined, 'describe'))
    expect(s.argsOf('handshake')).toEqual([
      { version: '1.0.0', capabilities: ['tools', 'resources'] },
    ])
    expect(described).toEqual({
      serverInfo: {
        name: 'VTEX IO RAG Server',
        version: '1.0.0',
        handshake: fixture.specHandshake,
      },
      violations: [],
    })
  })

  it('uses a handshake the pool already made without asking again', async () => {
    const s = new RecordingSession({
      serverInfo: { name: 'vtex-a', handshake: fixture.specHandshake },
    })
    const described = await vtexAdapter.describe?.(s, asUser())
    expect(s.calls).toEqual([])
    expect(described?.serverInfo).toMatchObject({
      name: 'vtex-a',
      handshake: fixture.specHandshake,
    })
  })

  it('treats a server without the method as having no handshake', async () => {
    const s = vtex({})
    const described = await vtexAdapter.describe?.(s, asUser())
    expect(described).toEqual({ serverInfo: {}, violations: [] })
  })

  it('reports a handshake with wrong types', () => {
    expect(rules(parseHandshake(fixture.broken.handshakeWrongTypes))).toEqual([
      'wrong_type',
      'wrong_type',
    ])
  })
})
