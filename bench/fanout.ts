import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Core } from '#core/core'
import { startCore } from '#test/support/core/live-core'
import { listeningUrl, startChild, type Child } from '#test/support/process/start-child'
import { whenReady } from './demo-servers'
import { median, now, summarize, type Benchmark, type BenchResult } from './harness'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const FIXTURE = resolve(root, 'src/test/fixtures/services/rag-fixture.mjs')

/**
 * Ten servers answering after 20, 40, … 200 ms, alternately over stdio and stateless
 * streamable HTTP (the fixture speaks no legacy SSE; the pool benchmark covers that transport).
 */
const SERVERS = Array.from({ length: 10 }, (_, index) => ({
  id: `rag${index}`,
  delayMs: 20 * (index + 1),
  transport: index % 2 === 0 ? ('stdio' as const) : ('http' as const),
}))
const SLOWEST = SERVERS[SERVERS.length - 1]!
const TARGET_RATIO = 1.1

const fixtureArgs = (id: string, delayMs: number): string[] => [
  '--name',
  id,
  '--delay',
  String(delayMs),
  '--hits',
  '10',
  '--shared',
  '3',
]

/** The registry of {@link SERVERS}; HTTP ones are started here and added to `started`. */
async function registry(started: Child<string>[]): Promise<Record<string, unknown>> {
  const servers: Record<string, unknown> = {}
  for (const server of SERVERS) {
    const args = fixtureArgs(server.id, server.delayMs)
    const common = { dialect: 'rag-tools-v1', timeoutMs: 10_000 }
    if (server.transport === 'stdio') {
      servers[server.id] = {
        ...common,
        transport: 'stdio',
        command: process.execPath,
        args: [FIXTURE, ...args],
      }
    } else {
      const child = await startChild([FIXTURE, '--http', ...args], listeningUrl, 15_000)
      started.push(child)
      servers[server.id] = { ...common, transport: 'http', url: child.ready }
    }
  }
  return servers
}

/** One search through the whole console over the selected servers; throws on any error. */
async function search(core: Core, searchId: string, ids: string[]) {
  const started = now()
  const result = await core.services.search.run({
    searchId,
    query: 'vpn setup',
    topK: 10,
    selection: Object.fromEntries(ids.map((id) => [id, []])),
  })
  const elapsed = now() - started
  const failed = result.servers.filter((server) => !server.ok)
  if (failed.length > 0 || result.servers.length !== ids.length) {
    throw new Error(`search ${searchId} failed on ${failed.map((s) => s.server).join(', ')}`)
  }
  return { elapsed, slowest: Math.max(...result.servers.map((server) => server.latencyMs)) }
}

/**
 * A search fanned out to ten servers with staggered delays, through the whole console (plan,
 * pool, adapters, audit, fusion), versus the same console searching the slowest server alone,
 * interleaved so machine load hits both sides alike. Target: ≤ 1.10× (ratio of medians).
 */
export const fanoutBenchmark: Benchmark = {
  name: 'search-fanout',
  async run({ quick }): Promise<BenchResult> {
    const iterations = quick ? 5 : 60
    const started: Child<string>[] = []
    const merged: number[] = []
    const alone: number[] = []
    const slowestInFanout: number[] = []
    try {
      const live = await startCore(await registry(started))
      try {
        const ids = SERVERS.map((server) => server.id)
        await whenReady(live.core, ids)
        for (let i = 0; i < iterations + 2; i++) {
          const all = await search(live.core, `fanout-${i}`, ids)
          const one = await search(live.core, `alone-${i}`, [SLOWEST.id])
          if (i < 2) continue // warm-up
          merged.push(all.elapsed)
          slowestInFanout.push(all.slowest)
          alone.push(one.elapsed)
        }
      } finally {
        await live.close()
      }
    } finally {
      await Promise.all(started.map((child) => child.stop()))
    }
    const ratio = median(merged) / median(alone)
    return {
      name: this.name,
      description: `one search over ${SERVERS.length} servers (stdio and streamable HTTP) answering after 20–200 ms`,
      metrics: [
        summarize(`search over all ${SERVERS.length}, end to end`, 'ms', merged),
        summarize(`search over the slowest (${SLOWEST.delayMs} ms) alone, end to end`, 'ms', alone),
        summarize('slowest server inside the fan-out search', 'ms', slowestInFanout),
      ],
      comparisons: [
        {
          name: 'fanout-vs-slowest-alone',
          description: `search over ${SERVERS.length} servers vs the slowest server alone (medians)`,
          ratio,
          target: `≤ ${TARGET_RATIO.toFixed(2)}`,
          ...(quick ? {} : { pass: ratio <= TARGET_RATIO }),
        },
        {
          name: 'fanout-vs-slowest-inside',
          description: `search over ${SERVERS.length} servers vs its slowest server's own latency (medians)`,
          ratio: median(merged) / median(slowestInFanout),
        },
      ],
      notes: [
        `${iterations} pairs after 2 warm-up pairs, each a fan-out search then the slowest alone.`,
      ],
    }
  },
}
