import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startCore, type LiveCore } from '../main/core/services/testing/live-core'
import { DEMO_USERS } from './access'
import { DEMO_KEY_ENV, endpointRegistry, endpointUrls, planEndpoints } from './endpoints'
import { eventually, startDemo, type DemoProcess } from './testing'

describe('planEndpoints', () => {
  it('cycles the HTTP/SSE families, one port each after the document host', () => {
    expect(planEndpoints(5, 50000)).toEqual([
      { id: 'rag-search-0', family: 'rag-search', program: 'rag-search', port: 50001 },
      { id: 'rag-tools-sse-1', family: 'rag-tools-sse', program: 'rag-tools-v1', port: 50002 },
      { id: 'ragbox-2', family: 'ragbox', program: 'ragbox', port: 50003 },
      { id: 'vtex-3', family: 'vtex', program: 'vtex', port: 50004 },
      { id: 'rag-search-4', family: 'rag-search', program: 'rag-search', port: 50005 },
    ])
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

describe('demo.js all --endpoints (built)', () => {
  let demo: DemoProcess | undefined
  let live: LiveCore | undefined
  const dir = mkdtempSync(join(tmpdir(), 'rc-endpoints-'))
  afterEach(async () => {
    await live?.close()
    await demo?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('serves each endpoint on its own port, and a console connects to every server of its registry', async () => {
    const file = join(dir, 'rag-mcp.json')
    demo = await startDemo([
      'all',
      ...['--port-base', '0', '--endpoints', '8', '--stdio-servers', '2', '--registry', file],
    ])
    const urls = endpointUrls(demo.output)
    expect([...urls.keys()]).toEqual(planEndpoints(8, 0).map((endpoint) => endpoint.id))
    expect(new Set([...urls.values()].map((url) => new URL(url).port)).size).toBe(8)
    const health = await fetch(new URL('/healthz', urls.get('vtex-3'))).then((r) => r.json())
    expect(health).toMatchObject({ service: 'vtex' })
    const registry = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    expect(Object.keys(registry)).toHaveLength(10)
    live = await startCore(registry, { env: { ...DEMO_KEY_ENV } })
    const core = live.core
    await eventually(
      async () =>
        Object.keys(registry).every((id) => core.pool.status(id).state === 'ready')
          ? true
          : undefined,
      30_000,
      100,
    )
    // rag-tools-v1 answers named users only: act as a demo user it knows.
    const bob = DEMO_USERS.find((user) => user.id === 'bob@example.com')!
    const { sessionTags, groups } = bob
    core.settings.saveProfile({ id: 'bob', name: 'Bob', userId: bob.id, sessionTags, groups })
    core.settings.setActive('bob')
    const { servers } = await core.services.discovery.run()
    expect(servers.filter((server) => !server.ok).map((server) => server.server)).toEqual([])
    expect(servers).toHaveLength(10)
  })
})
