import { describe, expect, it } from 'vitest'
import type { ToolInfo } from '#shared/model/server'
import { describeSuggestion } from '#shared/model/mapping'
import { queryArgument, suggestSearchTools } from './search-suggestion'

const takes = (required: string[], properties: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: Object.fromEntries(required.map((name) => [name, { type: 'string' }])),
  required,
  ...(Object.keys(properties).length ? { properties } : {}),
})

const tool = (name: string, over: Partial<ToolInfo> & { annotations?: unknown } = {}): ToolInfo =>
  ({ name, inputSchema: takes(['query']), ...over }) as ToolInfo

const names = (tools: ToolInfo[]) => suggestSearchTools(tools).map(describeSuggestion)

describe('search suggestions', () => {
  it('suggests a tool named for search with its query argument', () => {
    expect(suggestSearchTools([tool('search_docs')])).toEqual([
      {
        tool: 'search_docs',
        queryArgument: 'query',
        reason: 'its name says search',
        readOnly: false,
      },
    ])
  })

  it('suggests a tool whose description is about retrieval, after those named for search', () => {
    const tools = [
      tool('kb', { description: 'Retrieves the passages closest to a question' }),
      tool('lookupArticles'),
    ]
    expect(names(tools)).toEqual(['lookupArticles(query)', 'kb(query)'])
    expect(suggestSearchTools(tools)[1]!.reason).toBe('its description says retrieves')
  })

  it('puts tools the server marks read-only first among equals', () => {
    const tools = [tool('find_notes'), tool('search_docs', { annotations: { readOnlyHint: true } })]
    expect(names(tools)).toEqual(['search_docs(query)', 'find_notes(query)'])
    expect(suggestSearchTools(tools)[0]!.readOnly).toBe(true)
  })

  it('never suggests a tool whose name says it writes, whatever its description', () => {
    const tools = [
      tool('create_entities', { description: 'Search-ready entities are created' }),
      tool('delete_search_index'),
      tool('updateQuery'),
      tool('write_query_log'),
      tool('index_documents', { description: 'Makes documents searchable' }),
      tool('upsert_vectors', { description: 'query vectors' }),
    ]
    expect(suggestSearchTools(tools)).toEqual([])
  })

  it('never suggests a tool the server marks destructive', () => {
    const tools = [tool('search_and_purge', { annotations: { destructiveHint: true } })]
    expect(suggestSearchTools(tools)).toEqual([])
  })

  it('keeps a name that ends with index (it reads one)', () => {
    expect(names([tool('search_index')])).toEqual(['search_index(query)'])
  })

  it('needs a string argument for the query: required, or optional and named for it', () => {
    const optional = { type: 'object', properties: { query: { type: 'string' } } }
    const filter = { type: 'object', properties: { tag: { type: 'string' } } }
    const number = { type: 'object', properties: { k: { type: 'number' } }, required: ['k'] }
    expect(
      names([
        tool('search_a', { inputSchema: optional }),
        tool('search_b', { inputSchema: number }),
        tool('search_c', { inputSchema: undefined }),
        tool('search_d', { inputSchema: 'not a schema' }),
        tool('search_e', { inputSchema: filter }),
      ]),
    ).toEqual(['search_a(query)'])
  })

  it('takes the query-like argument among several, else the only required string', () => {
    expect(queryArgument(tool('x', { inputSchema: takes(['library', 'searchQuery']) }))).toBe(
      'searchQuery',
    )
    expect(queryArgument(tool('x', { inputSchema: takes(['pattern']) }))).toBe('pattern')
    expect(queryArgument(tool('x', { inputSchema: takes(['path', 'pattern']) }))).toBeUndefined()
  })

  it('suggests nothing for a server of no search-like tool', () => {
    expect(suggestSearchTools([tool('get_weather'), tool('echo')])).toEqual([])
  })
})
