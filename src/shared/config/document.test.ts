import { describe, expect, it } from 'vitest'
import { formatPath, parseRegistryDocument, positionOf } from './document'

describe('registry documents', () => {
  it('formats dotted paths, quoting keys that are not plain names', () => {
    expect(formatPath(['docsRag', 'dataSources', 1, 'id'])).toBe('docsRag.dataSources[1].id')
    expect(formatPath(['my.server', 'headers', 'X-API-Key'])).toBe(
      '["my.server"].headers.X-API-Key',
    )
  })

  it('gives 1-based lines and columns', () => {
    const doc = parseRegistryDocument('f', '{\n  "a": {}\r\n}')
    expect(positionOf(doc, 0)).toEqual({ line: 1, column: 1 })
    expect(positionOf(doc, 4)).toEqual({ line: 2, column: 3 })
    expect(positionOf(doc, doc.text.lastIndexOf('}'))).toEqual({ line: 3, column: 1 })
  })

  it('recognises the three forms', () => {
    expect(parseRegistryDocument('f', '{ "a": {} }').form).toBe('seed')
    expect(parseRegistryDocument('f', '{ "mcpServers": { "a": {} } }').form).toBe('mcpServers')
    expect(parseRegistryDocument('f', '{ "servers": { "a": {} }, "inputs": [] }').form).toBe(
      'servers',
    )
  })

  it('reads a server named "servers" in the seed form as a server', () => {
    const doc = parseRegistryDocument('f', '{ "servers": { "url": "http://x/mcp" } }')
    expect(doc.form).toBe('seed')
    expect(doc.entries.map((e) => e.id)).toEqual(['servers'])
  })

  it('skips $schema and tolerates a byte-order mark', () => {
    const doc = parseRegistryDocument('f', '\uFEFF{ "$schema": "./rag-mcp.schema.json", "a": {} }')
    expect(doc.diagnostics).toEqual([])
    expect(doc.entries.map((e) => e.id)).toEqual(['a'])
  })
})
