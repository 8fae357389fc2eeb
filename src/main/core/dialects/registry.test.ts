import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { DIALECT_IDS, type ToolInfo } from '#shared/model/server'
import { specSearchTool } from '#test/fixtures/dialects/vtex'
import { DIALECTS, adapterFor, detect } from './registry'

const tools = (...names: string[]): ToolInfo[] => names.map((name) => ({ name }))
const searchDocuments = (...params: string[]): ToolInfo => ({
  name: 'search_documents',
  inputSchema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, {}])) },
})
const ragboxTools = [
  searchDocuments('query', 'limit', 'privilege_mode'),
  ...tools('get_document', 'query_knowledge', 'list_documents'),
]

describe('dialect registry', () => {
  it('has one adapter per dialect id', () => {
    expect(DIALECTS.map((adapter) => adapter.id).sort()).toEqual([...DIALECT_IDS].sort())
    for (const id of DIALECT_IDS) expect(adapterFor(id).id).toBe(id)
  })
})

describe('detect', () => {
  it('recognises rag-search by rag_search', () => {
    expect(detect(tools('rag_search', 'verify_document_access'))).toEqual({
      id: 'rag-search',
      source: 'detected',
      reason: 'has rag_search and verify_document_access',
    })
  })

  it('recognises rag-tools-v1 by rag_get_raw_results', () => {
    expect(
      detect(tools('rag_discover_resources', 'rag_get_raw_results', 'rag_get_synthesized_results')),
    ).toMatchObject({
      id: 'rag-tools-v1',
      reason: 'has rag_get_raw_results, rag_discover_resources, rag_get_synthesized_results',
    })
  })

  it('recognises ragbox by its companion tools', () => {
    expect(detect(ragboxTools)).toMatchObject({
      id: 'ragbox',
      reason:
        'has search_documents with query_knowledge, get_document, list_documents, privilege_mode',
    })
  })

  it('recognises ragbox by privilege_mode alone', () => {
    expect(detect([searchDocuments('query', 'privilege_mode')]).id).toBe('ragbox')
  })

  it("recognises vtex by the spec's search_documents schema", () => {
    expect(detect([specSearchTool])).toMatchObject({
      id: 'vtex',
      reason: 'has search_documents with category, tags, author',
    })
  })

  it('prefers ragbox when search_documents has vtex filters and ragbox tools', () => {
    expect(detect([searchDocuments('query', 'category'), ...tools('query_knowledge')]).id).toBe(
      'ragbox',
    )
  })

  it('leaves a bare search_documents undetected and says how to choose', () => {
    const info = detect([searchDocuments('query', 'limit')])
    expect(info.id).toBeNull()
    expect(info.reason).toMatch(/search_documents without RAGbox's/)
    expect(info.reason).toMatch(/set "dialect" to "ragbox" or "vtex"/)
  })

  it('marks a server whose tools fit no dialect as not a RAG server', () => {
    expect(detect(tools('echo', 'add', 'longRunningOperation'))).toEqual({
      id: null,
      source: 'detected',
      reason:
        'not a RAG server: no rag_search, rag_get_raw_results or search_documents tool ' +
        '(it lists echo, add, longRunningOperation); it is not a search source until you map one of its tools to search with a generic "dialect": { "search": … }',
    })
  })

  it('says when a server lists no tools', () => {
    expect(detect([]).reason).toContain('it lists no tools')
  })

  it('names the other family when a server fits two', () => {
    expect(detect(tools('rag_search', 'rag_get_raw_results'))).toMatchObject({
      id: 'rag-search',
      reason: 'has rag_search; also fits rag-tools-v1 (set "dialect" to choose)',
    })
  })

  it('never detects generic on its own', () => {
    expect(detect(tools('search')).id).toBeNull()
  })

  it('does not touch the tool list', () => {
    const list = Object.freeze([Object.freeze(searchDocuments('query', 'tags'))]) as ToolInfo[]
    expect(() => detect(list)).not.toThrow()
  })

  it('works a list and setting out once, and a new list anew', () => {
    const list = tools('rag_search', 'verify_document_access')
    const looks = DIALECTS.map((adapter) => vi.spyOn(adapter, 'detect'))
    try {
      const first = detect(list)
      expect(detect(list)).toBe(first)
      expect(Object.isFrozen(first)).toBe(true)
      expect(looks.map((look) => look.mock.calls.length)).toEqual([1, 1, 1, 1, 1])
      // The config's setting is part of the question.
      expect(detect(list, 'ragbox')).toMatchObject({ id: 'ragbox', source: 'config' })
      expect(detect(list, 'auto')).toBe(first)
      // A connection's list is replaced when listed again: that one is looked at afresh.
      const relisted = tools('rag_get_raw_results', 'list_sources')
      expect(detect(relisted).id).toBe('rag-tools-v1')
    } finally {
      for (const look of looks) look.mockRestore()
    }
  })
})

describe('detect with a config override', () => {
  it('uses the configured dialect and says when the tools disagree', () => {
    expect(detect(ragboxTools, 'vtex')).toEqual({
      id: 'vtex',
      source: 'config',
      reason:
        "set in config, although its tools do not fit vtex (search_documents with RAGbox's query_knowledge, get_document, list_documents, privilege_mode)",
    })
    expect(detect(tools('rag_search'), 'rag-search')).toMatchObject({
      source: 'config',
      reason: 'set in config (has rag_search)',
    })
  })

  it('uses a generic mapping and warns when its tool is not listed', () => {
    expect(detect(tools('find'), { search: { tool: 'lookup' } })).toEqual({
      id: 'generic',
      source: 'config',
      reason: 'config maps tool lookup to search, but the server does not list lookup',
    })
  })

  it('explains that generic without a mapping cannot search', () => {
    expect(detect(tools('find'), 'generic').reason).toMatch(/no search mapping/)
  })
})

describe('detect is unambiguous between ragbox and vtex', () => {
  it('never lets both match, for any mix of their tools and parameters', () => {
    const names = fc.subarray(['query_knowledge', 'get_document', 'list_documents', 'other_tool'])
    const params = fc.subarray(['query', 'limit', 'privilege_mode', 'category', 'tags', 'author'])
    fc.assert(
      fc.property(names, params, (extra, props) => {
        const list = [searchDocuments(...props), ...tools(...extra)]
        const ragbox = adapterFor('ragbox').detect(list).matches
        const vtex = adapterFor('vtex').detect(list).matches
        expect(ragbox && vtex).toBe(false)
        expect(detect(list).id === null).toBe(!ragbox && !vtex)
      }),
    )
  })
})
