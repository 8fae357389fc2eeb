import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Core } from '../src/main/core/core'
import { startCore } from '../src/main/core/services/testing/live-core'
import { median, now, summarize, type Benchmark, type BenchResult } from './harness'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const FIXTURE = resolve(root, 'src/main/core/services/fixtures/rag-fixture.mjs')

/** Each server answers after its own delay; the slowest sets the floor of a fan-out search. */
const DELAYS_MS = [20, 60, 100, 150, 200]
const TARGET_RATIO = 1.1
const READY_TIMEOUT_MS = 20_000

function registry(): Record<string, unknown> {
  const servers: Record<string, unknown> = {}
  DELAYS_MS.forEach((delay, index) => {
    const id = `rag${index}`
    servers[id] = {
      transport: 'stdio',
      command: process.execPath,
      args: [FIXTURE, '--name', id, '--delay', String(delay), '--hits', '10', '--shared', '3'],
      dialect: 'rag-tools-v1',
      timeoutMs: 10_000,
    }
  })
  return servers
}

async function whenReady(core: Core, ids: string[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  for (;;) {
    const states = ids.map((id) => core.pool.status(id).state)
    if (states.every((state) => state === 'ready')) return
    if (Date.now() > deadline) throw new Error(`servers not ready: ${states.join(', ')}`)
    await new Promise((done) => setTimeout(done, 25))
  }
}

/**
 * A search fanned out to five stdio servers that answer after 20–200 ms, through the whole
 * console (pool, adapters, audit, fusion): the merged result must arrive within 1.10× the
 * slowest server's own latency in the same searches (ratio of medians).
 */
export const fanoutBenchmark: Benchmark = {
  name: 'search-fanout',
  async run({ quick }): Promise<BenchResult> {
    const iterations = quick ? 5 : 40
    const live = await startCore(registry())
    const core = live.core
    const ids = DELAYS_MS.map((_, index) => `rag${index}`)
    const merged: number[] = []
    const slowest: number[] = []
    const overhead: number[] = []
    try {
      await whenReady(core, ids)
      for (let i = 0; i < iterations + 2; i++) {
        const started = now()
        const result = await core.services.search.run({
          searchId: `bench-${i}`,
          query: 'vpn setup',
          topK: 10,
        })
        const elapsed = now() - started
        const failed = result.servers.filter((server) => !server.ok)
        if (failed.length > 0 || result.servers.length !== ids.length) {
          throw new Error(`search failed on ${failed.map((s) => s.server).join(', ')}`)
        }
        if (i < 2) continue // warm-up
        const slow = Math.max(...result.servers.map((server) => server.latencyMs))
        merged.push(elapsed)
        slowest.push(slow)
        overhead.push(elapsed - slow)
      }
    } finally {
      await live.close()
    }
    const ratio = median(merged) / median(slowest)
    return {
      name: 'search-fanout',
      description: `fan-out search over ${ids.length} stdio servers answering after ${DELAYS_MS.join('/')} ms`,
      metrics: [
        summarize('merged search, end to end', 'ms', merged),
        summarize('slowest server in the same search', 'ms', slowest),
        summarize('fan-out + merge overhead', 'ms', overhead),
      ],
      comparisons: [
        {
          name: 'fanout-vs-slowest',
          description: 'merged search vs slowest server latency (medians, same run)',
          ratio,
          target: `≤ ${TARGET_RATIO.toFixed(2)}`,
          pass: ratio <= TARGET_RATIO,
        },
      ],
    }
  },
}
