import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { Core } from '#core/core'
import { loadDemoGoldenSet } from '#main/demo-bootstrap/golden-set'
import type { GoldenSet } from '#shared/model/evaluation'
import type { Selection } from '#shared/model/operations'
import { demoRegistry, demoSelection, startDemoCore, startDemoServers } from './demo-servers'
import { median, now, summarize, type Benchmark, type BenchResult } from './harness'

const TARGET_RATIO = 1.1
const PROVIDERS = 5
const CONCURRENCY = 4
/**
 * Blocks of 100 queries: one run each, as an evaluation is one run (its fixed costs, planning
 * and storing, amortized as in use). Twenty of them, so that one block stalled by other work on
 * the machine weighs a twentieth of the totals.
 */
const QUERIES = 2000
const BLOCKS = 20
/** Queries of the run whose metric table and file size are measured. */
const METRIC_QUERIES = 100

/** User and system CPU of this process since `start`, in ms. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start)
  return (user + system) / 1000
}

/** `count` queries cycling through the demo golden set's questions (with their judgments). */
function benchSet(count: number): GoldenSet {
  const demo = loadDemoGoldenSet()
  if (!demo) throw new Error('resources/eval/demo-golden-set.json is missing')
  const pool = demo.queries.filter((q) => !q.profileId)
  const queries = Array.from({ length: count }, (_, i) => ({
    ...pool[i % pool.length]!,
    id: `q${String(i + 1).padStart(4, '0')}`,
  }))
  return { version: 1, id: 'bench', name: 'Benchmark', queries }
}

/** The same searches without evaluation: the search service, `CONCURRENCY` in flight. */
async function plainSearches(
  core: Core,
  set: GoldenSet,
  ids: string[],
  selection: Selection,
): Promise<number> {
  const texts = new Map(set.queries.map((q) => [q.id, q.query]))
  let next = 0
  let errors = 0
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const id = ids[next++]!
      const result = await core.services.search.run({
        searchId: `plain-${id}`,
        query: texts.get(id)!,
        topK: 10,
        selection,
      })
      errors += result.servers.filter((s) => !s.ok).length
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return errors
}

/**
 * A golden set of 2,000 queries evaluated over the five demo families (one server each) in
 * blocks, each block interleaved with the plain searches of the same queries at the same
 * concurrency, so load hits both sides alike. The evaluation side is the whole run: planning,
 * the searches, keeping the hits, progress events and writing the run file. Target: per query
 * ≤ 1.10× the plain searches, on the totals and on the medians of the blocks; the console's CPU
 * time on each side tells real overhead from other processes' load.
 */
export const evaluationBenchmark: Benchmark = {
  name: 'evaluation',
  async run({ quick }): Promise<BenchResult> {
    const total = quick ? 40 : QUERIES
    const blocks = quick ? 2 : BLOCKS
    const set = benchSet(total)
    const demo = await startDemoServers()
    const evalBlockMs: number[] = []
    const plainBlockMs: number[] = []
    // The bench process's CPU (the console's side; the demo servers are another process).
    const evalCpuMs: number[] = []
    const plainCpuMs: number[] = []
    const metricsMs: number[] = []
    let evalFailures = 0
    let plainErrors = 0
    let missing = 0
    let runBytes: number | undefined
    try {
      const registry = demoRegistry(demo, PROVIDERS)
      const servers = Object.keys(registry)
      const selection = demoSelection(servers)
      const live = await startDemoCore(registry)
      try {
        const { core } = live
        const evaluation = core.services.evaluation
        evaluation.saveSet(set)
        // Warm-up: every connection and code path on each side, long enough for the JIT to settle.
        const warm = set.queries.slice(0, Math.min(50, total / blocks)).map((q) => q.id)
        await plainSearches(core, set, warm, selection)
        await (
          await evaluation.startRun({ setId: set.id, selection, queryIds: warm })
        ).done
        const size = total / blocks
        for (let block = 0; block < blocks; block++) {
          const ids = set.queries.slice(block * size, (block + 1) * size).map((q) => q.id)
          const evaluate = async (): Promise<void> => {
            const started = now()
            const cpu = process.cpuUsage()
            const runStarted = await evaluation.startRun({
              setId: set.id,
              selection,
              queryIds: ids,
              concurrency: CONCURRENCY,
            })
            const run = await runStarted.done
            evalBlockMs.push(now() - started)
            evalCpuMs.push(cpuMs(cpu))
            evalFailures += run.summary.failures
            missing += ids.length * PROVIDERS - run.results.flatMap((r) => r.providers).length
          }
          const plain = async (): Promise<void> => {
            const started = now()
            const cpu = process.cpuUsage()
            plainErrors += await plainSearches(core, set, ids, selection)
            plainBlockMs.push(now() - started)
            plainCpuMs.push(cpuMs(cpu))
          }
          // Alternate which side goes first, so neither always meets a warmer machine.
          if (block % 2 === 0) await evaluate().then(plain)
          else await plain().then(evaluate)
        }
        // The metric table and the file of a 100-query run, outside the comparison.
        const tableIds = set.queries.slice(0, METRIC_QUERIES).map((q) => q.id)
        const tableRun = await (
          await evaluation.startRun({ setId: set.id, selection, queryIds: tableIds })
        ).done
        for (let i = 0; i < (quick ? 2 : 10); i++) {
          const measured = now()
          evaluation.metrics(tableRun.summary.id)
          metricsMs.push(now() - measured)
        }
        runBytes = statSync(join(core.dataDir, 'eval', 'runs', `${tableRun.summary.id}.json`)).size
      } finally {
        await live.close()
      }
    } finally {
      await demo.stop()
    }
    const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0)
    const perQuery = (values: number[]): number[] => values.map((ms) => ms / (total / blocks))
    const ratio = sum(evalBlockMs) / sum(plainBlockMs)
    const medianRatio = median(evalBlockMs) / median(plainBlockMs)
    const cpuRatio = sum(evalCpuMs) / sum(plainCpuMs)
    return {
      name: this.name,
      description: `a golden set of ${total} queries over ${PROVIDERS} demo providers (one per family), ${CONCURRENCY} in flight`,
      metrics: [
        summarize('evaluation, per query (whole run, stored)', 'ms', perQuery(evalBlockMs)),
        summarize('plain searches of the same queries, per query', 'ms', perQuery(plainBlockMs)),
        summarize(
          `metric table of a ${Math.min(total, METRIC_QUERIES)}-query run`,
          'ms',
          metricsMs,
        ),
        {
          name: `run file of ${Math.min(total, METRIC_QUERIES)} queries`,
          unit: 'MB',
          median: (runBytes ?? 0) / 1e6,
        },
        { name: 'whole evaluation', unit: 'ms', median: sum(evalBlockMs) },
        summarize('console CPU per query, evaluation', 'ms', perQuery(evalCpuMs)),
        summarize('console CPU per query, plain searches', 'ms', perQuery(plainCpuMs)),
      ],
      comparisons: [
        {
          name: 'evaluation-vs-plain-searches',
          description: `evaluating ${total} queries vs searching them plainly (totals of ${blocks} interleaved blocks)`,
          ratio,
          target: `≤ ${TARGET_RATIO.toFixed(2)}`,
          ...(quick ? {} : { pass: ratio <= TARGET_RATIO }),
        },
        {
          name: 'evaluation-vs-plain-median-block',
          description: 'the same, medians of the blocks',
          ratio: medianRatio,
          target: `≤ ${TARGET_RATIO.toFixed(2)}`,
          ...(quick ? {} : { pass: medianRatio <= TARGET_RATIO }),
        },
        {
          name: 'evaluation-vs-plain-cpu',
          description:
            "the console's CPU time for the same, totals: its own work, which other processes' load barely moves",
          ratio: cpuRatio,
        },
      ],
      checks: [
        {
          name: 'evaluation-failures',
          description: 'provider calls that failed during the evaluation',
          value: evalFailures,
          unit: 'count',
          target: '= 0',
          pass: evalFailures === 0,
        },
        {
          name: 'evaluation-missing-results',
          description: `(query, provider) results missing from the runs (of ${total * PROVIDERS})`,
          value: missing,
          unit: 'count',
          target: '= 0',
          pass: missing === 0,
        },
        {
          name: 'plain-search-errors',
          description: 'provider errors in the plain searches',
          value: plainErrors,
          unit: 'count',
          target: '= 0',
          pass: plainErrors === 0,
        },
      ],
      notes: [
        `${blocks} blocks of ${total / blocks} queries after a warm-up; each block is one evaluation run and the same queries searched plainly, alternating which goes first.`,
        `blocks, evaluation / plain, wall (CPU) ms: ${evalBlockMs.map((ms, i) => `${ms.toFixed(0)}/${plainBlockMs[i]!.toFixed(0)} (${evalCpuMs[i]!.toFixed(0)}/${plainCpuMs[i]!.toFixed(0)})`).join(', ')}`,
      ],
    }
  },
}
