import { describe, expect, it } from 'vitest'
import { registrySchema } from './registry-schema'
import { completionsAt, schemasAt } from './schema-completion'

const schema = registrySchema

/** Completions where `|` stands in the text. */
function at(textWithCursor: string) {
  const pos = textWithCursor.indexOf('|')
  return completionsAt(textWithCursor.replace('|', ''), pos, schema)
}

const labels = (textWithCursor: string) => at(textWithCursor)?.options.map((o) => o.label) ?? []

describe('schema completion', () => {
  it('offers the fields of a server entry inside one', () => {
    expect(labels('{ "docs": { "| } }')).toEqual(
      expect.arrayContaining(['transport', 'url', 'headers']),
    )
  })

  it('leaves out fields the entry already has', () => {
    expect(labels('{ "docs": { "url": "x", "| } }')).not.toContain('url')
  })

  it('offers the enum values of transport at its value', () => {
    expect(labels('{ "docs": { "transport": "| } }')).toEqual(['http', 'sse', 'stdio'])
  })

  it('offers the dialect ids, through the anyOf of the schema', () => {
    expect(labels('{ "docs": { "dialect": "|" } }')).toContain('rag-tools-v1')
  })

  it('completes canaries and their expectations', () => {
    expect(labels('{ "d": { "canaries": [ { "| } ] } }')).toEqual(
      expect.arrayContaining(['name', 'query', 'expect']),
    )
    expect(labels('{ "d": { "canaries": [ { "query": "x", "expect": { "| } } ] } }')).toEqual(
      expect.arrayContaining(['minHits', 'docInTopK', 'maxLatencyMs', 'verifyCitation']),
    )
  })

  it('offers true and false for a boolean field', () => {
    expect(labels('{ "docs": { "enabled": | } }')).toEqual(['true', 'false'])
  })

  it('follows arrays: data source fields and their authMode values', () => {
    expect(labels('{ "d": { "dataSources": [ { "| } ] } }')).toContain('authMode')
    expect(labels('{ "d": { "dataSources": [ { "authMode": "| } ] } }')).toContain('api_key')
  })

  it('works in the Claude Desktop form', () => {
    expect(labels('{ "mcpServers": { "x": { "tr| } } }')).toContain('transport')
  })

  it('offers nothing for server ids at the top level', () => {
    expect(at('{ "| }')).toBeNull()
  })

  it("offers the root properties of a schema whose top level is named (a tool's arguments)", () => {
    const tool = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }
    expect(completionsAt('{"a": 1, "}', 10, tool, true)?.options.map((o) => o.label)).toEqual(['b'])
  })

  it('replaces the whole quoted key and adds the value skeleton', () => {
    const result = at('{ "d": { "tra|" } }')!
    const transport = result.options.find((o) => o.label === 'transport')!
    expect(transport.template).toBe('"transport": "${}"')
    expect(result.replaceFrom).toBe(9)
    expect(result.replaceTo).toBe(14)
  })

  it('keeps an existing colon when renaming a key', () => {
    const result = at('{ "d": { "ur|": "x" } }')!
    expect(result.options.find((o) => o.label === 'url')?.template).toBe('"url"')
  })

  it('resolves schemas of nested generic dialect fields', () => {
    const found = schemasAt(schema, ['d', 'dialect', 'search', 'fields'])
    expect(found.some((s) => s.properties?.title)).toBe(true)
  })
})
