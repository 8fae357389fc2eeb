import { describe, expect, it } from 'vitest'
import { demoSelection, programUrls } from './demo-servers'

const printed = [
  'doc-host      http://127.0.0.1:36081/',
  'rag-search    http://127.0.0.1:44867/mcp   (Authorization: Bearer <key>)',
  'rag-tools-v1  http://127.0.0.1:34323/sse   (legacy SSE (Engineering wiki))',
  'ragbox        http://127.0.0.1:34051/api/mcp   (X-API-Key: <key>)',
  'vtex          http://127.0.0.1:46869/_v/rag_server/v1/mcp   (per-method endpoints)',
  'rag-tools-v1 over stdio (Company docs): node demo.js rag-tools-v1 --stdio',
]

describe('programUrls', () => {
  it('waits for the ready line', () => {
    expect(programUrls(printed)).toBeUndefined()
  })

  it("reads every program's URL once ready", () => {
    expect(programUrls([...printed, 'ready http://127.0.0.1:36081/'])).toEqual({
      'doc-host': 'http://127.0.0.1:36081',
      'rag-search': 'http://127.0.0.1:44867/mcp',
      'rag-tools-v1': 'http://127.0.0.1:34323/sse',
      ragbox: 'http://127.0.0.1:34051/api/mcp',
      vtex: 'http://127.0.0.1:46869/_v/rag_server/v1/mcp',
    })
  })

  it('names the programs whose URL never came', () => {
    expect(() => programUrls([printed[0]!, 'ready http://127.0.0.1:36081/'])).toThrow(
      /no URL printed for rag-search, rag-tools-v1, ragbox, vtex/,
    )
  })
})

describe('demoSelection', () => {
  it('selects each family’s sources, leaving out the deliberately offline wiki', () => {
    expect(demoSelection(['rag-search-0', 'rag-tools-sse-1', 'rag-tools-stdio-2'])).toEqual({
      'rag-search-0': [],
      'rag-tools-sse-1': ['it-kb', 'engineering', 'product'],
      'rag-tools-stdio-2': ['handbook'],
    })
  })

  it('refuses an id that is not from the demo registry', () => {
    expect(() => demoSelection(['docsRag'])).toThrow(/docsRag is not a demo registry id/)
  })
})
