import {
  median,
  summarize,
  type Benchmark,
  type BenchResult,
  type Check,
  type Metric,
} from './harness'
import {
  MEMORY_WORKER_FLAG,
  type MemoryPlan,
  type MemoryReport,
  type MemorySample,
} from './memory-worker'
import { runWorker } from './worker'

/**
 * Most heap the second round may keep over the first. A leak of one search result per
 * search (≥ 10 KB: 20 servers' hits) would add ≥ 10 MB per 1,000 searches, and a leak of one
 * small object per server call (≥ 100 B × 20,000 calls) ≥ 2 MB; caches that fill once (JIT
 * code, discovery, the pool's bounded log rings) fill in round 1.
 */
export const HEAP_GROWTH_LIMIT_MB = 2
/**
 * Most RSS the second round may keep over the first. Looser than the heap: the allocator and
 * V8 keep freed pages mapped, so RSS moves by several MB with no leak behind it.
 */
export const RSS_GROWTH_LIMIT_MB = 16

/**
 * Main-process memory of a console connected to 20 demo servers (four of each family) after
 * 1,000 searches over all of them, and after the same 1,000 again: what the second round
 * keeps over the first must be flat.
 */
export const memoryBenchmark: Benchmark = {
  name: 'memory',
  async run({ quick }): Promise<BenchResult> {
    // A quick run only proves the path works: half the servers keep CI's smoke run short.
    const plan: MemoryPlan = quick
      ? { servers: 10, searches: 20, sampleEvery: 10, workers: 8 }
      : { servers: 20, searches: 1000, sampleEvery: 100, workers: 8 }
    const report = await runWorker<MemoryReport>(MEMORY_WORKER_FLAG, plan)
    const [first, second] = report.rounds as [MemoryReport['rounds'][0], MemoryReport['rounds'][0]]
    const end = (round: typeof first) => round.samples[round.samples.length - 1]!
    const heapGrowth = end(second).heapUsedMB - end(first).heapUsedMB
    const rssGrowth = end(second).rssMB - end(first).rssMB
    const errors = [...first.errors, ...second.errors]
    const at = (when: string, sample: MemorySample): Metric[] => [
      { name: `RSS ${when}`, unit: 'MB', median: sample.rssMB },
      { name: `heap used ${when}`, unit: 'MB', median: sample.heapUsedMB },
      { name: `heap reserved ${when}`, unit: 'MB', median: sample.heapTotalMB },
      { name: `external (Buffers, …) ${when}`, unit: 'MB', median: sample.externalMB },
    ]
    const metrics: Metric[] = at('connected, before any search', report.connected)
    report.rounds.forEach((round, index) => {
      const label = index === 0 ? 'first' : 'second'
      metrics.push(
        ...at(`after the ${label} ${plan.searches} searches`, end(round)),
        summarize(
          `RSS every ${plan.sampleEvery} searches, ${label} round`,
          'MB',
          round.samples.map((s) => s.rssMB),
        ),
        summarize(
          `heap used every ${plan.sampleEvery} searches, ${label} round`,
          'MB',
          round.samples.map((s) => s.heapUsedMB),
        ),
        {
          name: `searches per second, ${label} round`,
          unit: 'ops/s',
          median: plan.searches / round.seconds,
        },
      )
    })
    const checks: Check[] = [
      {
        name: 'heap-growth',
        description: `heap used after round 2 minus after round 1 (${plan.searches} searches each)`,
        value: heapGrowth,
        unit: 'MB',
        target: `≤ ${HEAP_GROWTH_LIMIT_MB} MB`,
        ...(quick ? {} : { pass: heapGrowth <= HEAP_GROWTH_LIMIT_MB }),
      },
      {
        name: 'rss-growth',
        description: `RSS after round 2 minus after round 1 (${plan.searches} searches each)`,
        value: rssGrowth,
        unit: 'MB',
        target: `≤ ${RSS_GROWTH_LIMIT_MB} MB`,
        ...(quick ? {} : { pass: rssGrowth <= RSS_GROWTH_LIMIT_MB }),
      },
      {
        name: 'search-errors',
        description: `server or source errors in ${2 * plan.searches} searches`,
        value: errors.length,
        unit: 'count',
        target: '= 0',
        pass: errors.length === 0,
      },
    ]
    return {
      name: this.name,
      description: `main-process memory with ${plan.servers} connected servers, ${plan.searches} searches twice`,
      metrics,
      comparisons: [
        {
          name: 'heap-round2-vs-round1',
          description: 'heap used after round 2 vs after round 1 (after forced GC)',
          ratio: end(second).heapUsedMB / end(first).heapUsedMB,
        },
        {
          name: 'heap-median-round2-vs-round1',
          description: `median heap over round 2 vs round 1 (samples every ${plan.sampleEvery} searches)`,
          ratio:
            median(second.samples.map((s) => s.heapUsedMB)) /
            median(first.samples.map((s) => s.heapUsedMB)),
        },
      ],
      checks,
      notes: [
        `A child process (node --expose-gc) holds the console, so nothing earlier benchmarks left behind is counted; every sample follows two forced collections and the audit writes of the searches so far. Servers: ${plan.servers / 5} of each family against one demo process (stdio ones are children of the console, outside its RSS); ${plan.workers} searches in flight, each over all ${plan.servers} servers as demo user Bob.`,
        `Thresholds: heap ≤ ${HEAP_GROWTH_LIMIT_MB} MB (a leak of one small object per server call over ${plan.searches * plan.servers} calls would exceed it); RSS ≤ ${RSS_GROWTH_LIMIT_MB} MB (freed pages stay mapped, so RSS is judged loosely and the heap strictly). A quick run only reports them.`,
        ...(errors.length ? [`errors seen: ${[...new Set(errors)].slice(0, 5).join('; ')}`] : []),
      ],
    }
  },
}
