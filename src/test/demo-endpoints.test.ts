import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEMO_KEY_ENV, endpointUrls, planEndpoints } from '#demo/endpoints'
import { postJson, startDemo, toolCallMessage, type DemoProcess } from './support/demo/programs'
import { startCore, type LiveCore } from './support/core/live'
import { waitFor } from './support/process/wait-for'
import { demoProfile } from './support/demo/profiles'

/** `demo.js all --endpoints`: many servers from one demo process, as a console meets them. */
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
    const ids = Object.keys(registry)
    expect(ids).toHaveLength(10)
    live = await startCore(registry, { env: { ...DEMO_KEY_ENV } })
    const { core } = live
    await waitFor(() => ids.every((id) => core.pool.status(id).state === 'ready'))
    // rag-tools-v1 answers named users only: act as a demo user it knows.
    core.settings.saveProfile(demoProfile('bob@example.com', 'bob', 'Bob'))
    core.settings.setActive('bob')
    const { servers } = await core.services.discovery.run()
    expect(servers.filter((server) => !server.ok).map((server) => server.server)).toEqual([])
    expect(servers).toHaveLength(10)
  })

  it('answers each endpoint after its own latency from a --latency list', async () => {
    demo = await startDemo(['all', '--port-base', '0', '--endpoints', '8', '--latency', '0,400,0'])
    const urls = endpointUrls(demo.output)
    const call = async (id: string) => {
      const started = performance.now()
      const reply = await postJson(
        `${urls.get(id)}/tools/call`,
        toolCallMessage('search_documents', { query: 'webhooks', limit: 1 }),
      )
      expect(reply.status).toBe(200)
      return { id, ms: performance.now() - started }
    }
    const finished: string[] = []
    // vtex-3 is endpoint 3 (latency 0), vtex-7 endpoint 7 (latency 400): sent together,
    // the one without a backend latency answers first, the other no sooner than 400 ms.
    const [, slow] = await Promise.all(
      ['vtex-3', 'vtex-7'].map((id) => call(id).then((done) => (finished.push(id), done))),
    )
    expect(finished).toEqual(['vtex-3', 'vtex-7'])
    expect(slow!.ms).toBeGreaterThanOrEqual(400)
  })
})
