import { describe, expect, it } from 'vitest'
import { DEMO_KEY_ENV, endpointRegistry, endpointUrls, planEndpoints } from './endpoints'

describe('planEndpoints', () => {
  it('cycles the HTTP/SSE families, one port each after the document host', () => {
    expect(planEndpoints(5, 50000)).toEqual([
      {
        id: 'rag-search-0',
        family: 'rag-search',
        program: 'rag-search',
        port: 50001,
        latencyMs: 0,
      },
      {
        id: 'rag-tools-sse-1',
        family: 'rag-tools-sse',
        program: 'rag-tools-v1',
        port: 50002,
        latencyMs: 0,
      },
      { id: 'ragbox-2', family: 'ragbox', program: 'ragbox', port: 50003, latencyMs: 0 },
      { id: 'vtex-3', family: 'vtex', program: 'vtex', port: 50004, latencyMs: 0 },
      {
        id: 'rag-search-4',
        family: 'rag-search',
        program: 'rag-search',
        port: 50005,
        latencyMs: 0,
      },
    ])
  })

  it('cycles a latency list over the endpoints, so every class is spread over the families', () => {
    expect(planEndpoints(5, 0, [100, 150, 200]).map((endpoint) => endpoint.latencyMs)).toEqual([
      100, 150, 200, 100, 150,
    ])
    expect(planEndpoints(2, 0).map((endpoint) => endpoint.latencyMs)).toEqual([0, 0])
  })

  it('puts every endpoint on a free port when the base is 0', () => {
    expect(planEndpoints(3, 0).map((endpoint) => endpoint.port)).toEqual([0, 0, 0])
  })
})

describe('endpointRegistry', () => {
  it('lists the endpoints, then the stdio servers, and keeps keys out of the file', () => {
    const registry = endpointRegistry(
      [{ id: 'ragbox-0', family: 'ragbox', url: 'http://127.0.0.1:1/api/mcp' }],
      { count: 2, target: { command: 'node', args: ['demo.js'] } },
    )
    expect(Object.keys(registry)).toEqual(['ragbox-0', 'rag-tools-stdio-1', 'rag-tools-stdio-2'])
    expect(registry['ragbox-0']).toMatchObject({
      transport: 'http',
      url: 'http://127.0.0.1:1/api/mcp',
      headers: { 'X-API-Key': '${env:RAG_DEMO_RAGBOX_KEY}' },
    })
    expect(registry['rag-tools-stdio-2']).toMatchObject({ transport: 'stdio', command: 'node' })
    expect(JSON.stringify(registry)).not.toContain(DEMO_KEY_ENV.RAG_DEMO_RAGBOX_KEY)
  })
})

describe('endpointUrls', () => {
  it('reads the printed endpoint lines by id, ignoring the rest', () => {
    const lines = [
      'doc-host      http://127.0.0.1:1/',
      'endpoint rag-search-0 rag-search http://127.0.0.1:2/mcp',
      'endpoint vtex-1 vtex http://127.0.0.1:3/_v/rag_server/v1/mcp',
      'ready http://127.0.0.1:1/',
    ]
    expect([...endpointUrls(lines)]).toEqual([
      ['rag-search-0', 'http://127.0.0.1:2/mcp'],
      ['vtex-1', 'http://127.0.0.1:3/_v/rag_server/v1/mcp'],
    ])
  })
})
