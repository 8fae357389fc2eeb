import type { Core } from '#core/core'
import {
  QUERIES,
  demoRegistry,
  demoSelection,
  searchErrors,
  startDemoCore,
  startDemoServers,
  type DemoServers,
} from './demo-servers'
import {
  median,
  now,
  summarize,
  type Benchmark,
  type BenchResult,
  type Check,
  type Metric,
} from './harness'

const CONCURRENCY = [1, 8, 32]

/**
 * Searches over every one of `servers` (demo registry ids, see {@link demoSelection}), run by `workers` loops
 * sharing one counter; every error is kept, and a server missing from a result is one.
 */
export async function searchLoad(
  core: Core,
  options: { servers: string[]; workers: number; searches: number; tag: string },
): Promise<{ seconds: number; latencies: number[]; errors: string[] }> {
  const selection = demoSelection(options.servers)
  let next = 0
  const latencies: number[] = []
  const errors: string[] = []
  const worker = async (): Promise<void> => {
    while (next < options.searches) {
      const index = next++
      const started = now()
      try {
        const result = await core.services.search.run({
          searchId: `${options.tag}-${index}`,
          query: QUERIES[index % QUERIES.length]!,
          topK: 10,
          selection,
        })
        errors.push(...searchErrors(result, options.servers))
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error))
      }
      latencies.push(now() - started)
    }
  }
  const started = now()
  await Promise.all(Array.from({ length: options.workers }, worker))
  return { seconds: (now() - started) / 1000, latencies, errors }
}

/**
 * Searches per second through the console's search service (plan, fan-out over the pool,
 * adapters, fusion, audit) against one demo server of each family, at 1, 8 and 32 searches in
 * flight; every server or source error counts, and there must be none.
 */
export const throughputBenchmark: Benchmark = {
  name: 'search-throughput',
  async run({ quick }): Promise<BenchResult> {
    const repeats = quick ? 1 : 5
    // Enough searches per run that ramp-up and the last stragglers are a small part of it.
    const searchesAt = (workers: number): number =>
      quick ? Math.max(20, workers * 2) : Math.max(120, workers * 8)
    let demo: DemoServers | undefined
    const perSecond = new Map<number, number[]>(CONCURRENCY.map((w) => [w, []]))
    const latencies = new Map<number, number[]>(CONCURRENCY.map((w) => [w, []]))
    const errors: string[] = []
    let searches = 0
    try {
      demo = await startDemoServers()
      const registry = demoRegistry(demo, 5)
      const servers = Object.keys(registry)
      const live = await startDemoCore(registry)
      try {
        // Warm-up: connections, JIT, the servers' own indexes.
        await searchLoad(live.core, { servers, workers: 4, searches: 20, tag: 'warm' })
        // Levels interleaved within each repeat: drift in the machine's load hits them alike.
        for (let r = 0; r < repeats; r++) {
          for (const workers of CONCURRENCY) {
            const count = searchesAt(workers)
            const run = await searchLoad(live.core, {
              servers,
              workers,
              searches: count,
              tag: `c${workers}-r${r}`,
            })
            perSecond.get(workers)!.push(count / run.seconds)
            latencies.get(workers)!.push(...run.latencies)
            errors.push(...run.errors)
            searches += count
          }
        }
      } finally {
        await live.close()
      }
    } finally {
      await demo?.stop()
    }
    const rate = (workers: number): number => median(perSecond.get(workers)!)
    const metrics: Metric[] = CONCURRENCY.flatMap((workers) => [
      summarize(`${workers} in flight: searches per second`, 'ops/s', perSecond.get(workers)!),
      summarize(`${workers} in flight: search latency`, 'ms', latencies.get(workers)!),
    ])
    const checks: Check[] = [
      {
        name: 'search-errors',
        description: `server or source errors in ${searches} searches`,
        value: errors.length,
        unit: 'count',
        target: '= 0',
        pass: errors.length === 0,
      },
    ]
    const distinct = [...new Set(errors)].slice(0, 5)
    return {
      name: this.name,
      description:
        'searches per second through the search service over 5 demo servers (one per family)',
      metrics,
      comparisons: CONCURRENCY.slice(1).map((workers) => ({
        name: `throughput-${workers}-vs-1`,
        description: `searches/s at ${workers} in flight vs 1 in flight (medians)`,
        ratio: rate(workers) / rate(1),
      })),
      checks,
      notes: [
        `Servers: rag-search (streamable HTTP), rag-tools-v1 (legacy SSE), rag-tools-v1 (stdio), RAGbox (HTTP), VTEX (per-method HTTP); each search goes to all five as demo user Bob. ${repeats} repeat(s), each running the levels in turn with ${CONCURRENCY.map(searchesAt).join(' / ')} searches. RAGbox runs with its rate limit raised to 10^9/min: the default 60/min would measure the limiter, not the console.`,
        'The servers run in the same 2 cores as the console, so searches per second is bounded by the demo servers as much as by the console; the pool caps calls in flight per server at 8, so 32 in flight queue by design.',
        ...(distinct.length ? [`errors seen: ${distinct.join('; ')}`] : []),
      ],
    }
  },
}
