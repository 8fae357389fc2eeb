import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CanaryConfig } from '#shared/config/schema'
import { OWN_DOC_HOST, startDemo, type DemoProcess } from './support/demo/programs'
import { DOWN_URL, fixtureEntry, startCore, whenState, type LiveCore } from './support/core/live'
import { waitFor } from './support/process/wait-for'
import { CanaryMonitor, type CanaryReport } from '#core/monitoring/canary-monitor'
import { canaryNames, runCanary, type CanaryServices } from '#core/monitoring/canaries'

/**
 * Canaries through the whole console against real servers: the rag-tools-v1 fixture over stdio
 * (fast, and slow for latency), a server that is down, and the rag-search demo with its
 * document host for citations and for a reload that breaks its key.
 */
const KEY = 'canary-test-key-0123456789'
let ragSearch: DemoProcess
let live: LiveCore
let services: CanaryServices

beforeAll(async () => {
  ragSearch = await startDemo(['rag-search', '--port', '0', '--api-key', KEY, ...OWN_DOC_HOST])
  live = await startCore(registry('${session:apiKey}'))
  live.core.secrets.setSessionToken('knowledgeSearch', 'apiKey', KEY)
  await whenState(live.core, ['fast', 'slow', 'knowledgeSearch'])
  services = {
    search: (request) => live.core.services.search.run(request),
    verify: (target) => live.core.services.access.check(target, { refresh: true }),
  }
})

afterAll(async () => {
  await live?.close()
  await ragSearch?.stop()
})

function registry(authorization: string): object {
  return {
    fast: fixtureEntry(['--name', 'fast']),
    slow: fixtureEntry(['--name', 'slow', '--delay', '400']),
    down: { url: DOWN_URL, dialect: 'rag-tools-v1', timeoutMs: 2_000 },
    knowledgeSearch: {
      url: ragSearch.url,
      headers: { Authorization: `Bearer ${authorization}` },
      dialect: 'rag-search',
      canaries: [
        {
          name: 'pto',
          query: 'code of conduct policy',
          expect: {
            minHits: 1,
            docInTopK: { doc: 'hb-code-of-conduct-policy', k: 3 },
            verifyCitation: true,
          },
        },
      ],
    },
  }
}

const run = (server: string, canary: CanaryConfig) =>
  runCanary(services, live.core.registry.server(server)!, canary)

describe('one canary run', () => {
  it('passes when every expectation holds', async () => {
    const result = await run('fast', {
      query: 'vpn',
      expect: { minHits: 5, docInTopK: { doc: 'fast-2', k: 3 }, maxLatencyMs: 5_000 },
    })
    expect(result).toMatchObject({ server: 'fast', canary: 'vpn', passed: true, failures: [] })
    expect(result.hits).toBe(5)
  })

  it('names each expectation that failed, in words', async () => {
    const result = await run('fast', {
      name: 'too much',
      query: 'vpn',
      expect: { minHits: 6, docInTopK: { doc: 'fast-4', k: 2 } },
    })
    expect(result.passed).toBe(false)
    expect(result.failures).toEqual([
      { expectation: 'minHits', message: '5 hit(s), expected at least 6' },
      { expectation: 'docInTopK', message: '"fast-4" is at rank 5, expected in the top 2' },
    ])
    const missing = await run('fast', {
      query: 'vpn',
      expect: { docInTopK: { doc: 'nope', k: 3 } },
    })
    expect(missing.failures[0]?.message).toBe(
      '"nope" is not among the 5 hit(s), expected in the top 3',
    )
  })

  it('fails a server slower than maxLatencyMs', async () => {
    const result = await run('slow', { query: 'vpn', expect: { maxLatencyMs: 100 } })
    expect(result.passed).toBe(false)
    expect(result.failures).toEqual([
      {
        expectation: 'maxLatencyMs',
        message: expect.stringMatching(/^took \d+ ms, expected at most 100 ms$/),
      },
    ])
    expect(result.latencyMs).toBeGreaterThanOrEqual(400)
  })

  it('fails with the error code when the search itself fails', async () => {
    const result = await run('down', { query: 'vpn', expect: { minHits: 1 } })
    expect(result.passed).toBe(false)
    expect(result.failures).toEqual([
      // Unreachable while the pool first tries it and once it knows it is down alike.
      expect.objectContaining({
        expectation: 'error',
        code: 'unreachable',
        message: expect.stringContaining('server down'),
      }),
    ])
  })

  it("verifies the first hit's citation on the document host", async () => {
    const config = live.core.registry.server('knowledgeSearch')!
    const result = await runCanary(services, config, config.canaries![0]!)
    expect(result).toMatchObject({ canary: 'pto', passed: true, failures: [] })
  })

  it('tells two canaries with the same label apart', () => {
    expect(canaryNames([{ query: 'vpn' }, { query: 'vpn' }, { name: 'x', query: 'y' }])).toEqual([
      'vpn',
      'vpn #2',
      'x',
    ])
  })
})

describe('the canary monitor', () => {
  it('records a regression caused by a reload on that reload in the history, next to its diff', async () => {
    const reports: CanaryReport[] = []
    const monitor = new CanaryMonitor({
      registry: live.core.registry,
      poolIdle: () => live.core.pool.idle(),
      services,
      onReport: (report) => reports.push(report),
      intervalMs: 0,
    })
    try {
      await monitor.start()
      // The start run is recorded on the reload that loaded the registry.
      expect(live.core.registry.history().at(-1)?.canaries).toEqual([
        { server: 'knowledgeSearch', canary: 'pto', passed: true, regression: false, failures: [] },
      ])
      expect(reports).toEqual([
        expect.objectContaining({ canary: 'pto', passed: true, trigger: 'start' }),
      ])
      // The edit: the server's key now comes from a session token nobody set.
      await live.rewrite(registry('${session:otherKey}'))
      await waitFor(() => reports.length === 2, 'the canary to run after the reload')
      expect(reports[1]).toMatchObject({ passed: false, regression: true, trigger: 'reload' })
      const entry = await waitFor(
        () => live.core.registry.history().findLast((e) => e.canaries && e.trigger === 'manual'),
        'the reload history to show the canary',
      )
      expect(entry.diff?.changed).toEqual(['knowledgeSearch'])
      expect(entry.canaries).toEqual([
        {
          server: 'knowledgeSearch',
          canary: 'pto',
          passed: false,
          regression: true,
          failures: [expect.any(String)],
        },
      ])
    } finally {
      monitor.dispose()
      await live.rewrite(registry('${session:apiKey}'))
    }
  })
})
