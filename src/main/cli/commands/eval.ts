import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { ConsoleError } from '#shared/errors'
import {
  LOW_COVERAGE,
  type EvalMetrics,
  type EvalRun,
  type GoldenSet,
} from '#shared/model/evaluation'
import { compareRuns } from '#core/services/eval/compare'
import {
  checkThresholds,
  parseThreshold,
  significantRegressions,
  type Threshold,
} from '#core/services/eval/gate'
import { listKey, runMetrics } from '#core/services/eval/run-metrics'
import { parseStoredRun } from '#core/services/eval/run-store'
import { DEFAULT_EVAL_K } from '#core/services/eval/runner'
import { parseGoldenSet } from '#core/services/eval/set-store'
import { runToTrec } from '#core/services/eval/trec-files'
import type { Core } from '#core/core'
import type { CommandOptions } from '../command-table'
import { integer, selectionOf } from '../args'
import { connectServers, withCore, type CliContext } from '../context'
import { EXIT, UsageError, isUnreached, type ExitCode } from '../exit-codes'
import { ms, table } from '../output'
import { trecFilesCommand } from './eval-trec'

/**
 * `eval SET.json …`: runs a golden set across the selected servers and profiles, prints its
 * metrics, and gates: exit 1 when a `--min` threshold fails or the merged list got significantly
 * worse than `--baseline` (p < 0.05), 4 when no server could be reached, 0 otherwise.
 */
export async function evalCommand(
  ctx: CliContext,
  words: string[],
  options: CommandOptions<'eval'>,
): Promise<ExitCode> {
  const format = options.format ?? (ctx.global.json ? 'json' : 'table')
  if (options.qrels !== undefined || options.run !== undefined) {
    const stray = (['server', 'source', 'profile', 'baseline', 'min', 'fusion'] as const).filter(
      (name) => options[name] !== undefined,
    )
    if (stray.length > 0) {
      throw new UsageError(
        `eval --qrels/--run scores two files; ${stray.map((name) => `--${name}`).join(', ')} belong${stray.length === 1 ? 's' : ''} to a golden set run`,
      )
    }
    try {
      return trecFilesCommand(ctx, words, options, format)
    } catch (error) {
      // A file that is not what trec_eval reads is a usage error, as an invalid SET.json is.
      if (error instanceof ConsoleError) throw new UsageError(error.message)
      throw error
    }
  }
  if (options.complete) throw new UsageError('--complete belongs to eval --qrels QRELS --run RUN')
  if (words.length !== 1)
    throw new UsageError(
      'eval needs exactly one SET.json (a golden set file), or --qrels and --run',
    )
  const set = readSet(words[0]!)
  const thresholds = (options.min ?? []).map(thresholdOf)
  const k = options.k === undefined ? DEFAULT_EVAL_K : integer('--k', options.k, 1, 100)
  const runK = Math.max(k, ...thresholds.map((t) => t.k ?? k))
  const fusion = options.fusion ?? 'rrf'
  const selection = selectionOf(options.server, options.source)
  return withCore(ctx, { demoKeys: true }, async (core) => {
    const baseline = options.baseline ? loadBaseline(core, options.baseline) : undefined
    await connectServers(core, selection && Object.keys(selection))
    const runId = `cli-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
    const stop = core.events.on('eval:progress', (event) => {
      if (event.runId !== runId) return
      ctx.out.progress(
        `${event.done}/${event.total} ${event.queryId ?? ''} as ${event.profileId ?? ''}`,
      )
    })
    const started = await core.services.evaluation.runner.start({
      runId,
      set,
      k: runK,
      ...(selection ? { selection } : {}),
      ...(options.profile ? { profiles: options.profile } : {}),
    })
    // Ctrl-C (or SIGTERM) cancels: the run is stored as cancelled with the queries done.
    const cancel = (): void => void core.services.evaluation.runner.cancel(runId)
    process.once('SIGINT', cancel)
    process.once('SIGTERM', cancel)
    const run = await started.done.finally(() => {
      stop()
      process.off('SIGINT', cancel)
      process.off('SIGTERM', cancel)
    })
    if (run.summary.status === 'cancelled') {
      ctx.out.error({
        code: 'cancelled',
        message: `interrupted after ${run.summary.done}/${run.summary.total} queries: stored as run ${run.summary.id} (cancelled); nothing was gated`,
      })
      return EXIT.failed
    }
    const tables = new Map<number, EvalMetrics>()
    const metricsAt = (at: number): EvalMetrics => {
      if (!tables.has(at)) tables.set(at, runMetrics(run, at))
      return tables.get(at)!
    }
    const outcomes = checkThresholds(thresholds, metricsAt, k, fusion)
    const comparison = baseline
      ? compareRuns(baseline, run, Math.min(k, baseline.inputs.k))
      : undefined
    const regressions = comparison ? significantRegressions(comparison, fusion) : []
    const failed = outcomes.some((o) => !o.passed) || regressions.length > 0
    const gated = listKey({ kind: 'merged', fusion })
    if (format === 'trec') {
      ctx.out.text(runToTrec(run, { kind: 'merged', fusion }))
    } else if (format === 'json') {
      ctx.out.result({
        run: run.summary,
        k,
        rows: metricsAt(k).rows,
        thresholds: outcomes,
        ...(comparison
          ? {
              baseline: {
                run: comparison.runA,
                deltas: comparison.deltas.filter((d) => listKey(d.list) === gated),
                better: comparison.better.filter((q) => listKey(q.list) === gated),
                worse: comparison.worse.filter((q) => listKey(q.list) === gated),
                lostDocuments: comparison.lostDocuments.filter((d) => listKey(d.list) === gated),
              },
            }
          : {}),
        passed: !failed,
      })
    } else {
      ctx.out.text(
        [
          metricsTable(metricsAt(k)),
          ...outcomes.map(
            (o) =>
              `${o.passed ? 'PASS' : 'FAIL'} ${o.threshold}: ${o.value === null ? o.reason : o.value.toFixed(3)} (${listKey(o.list)}, k=${o.k})`,
          ),
          ...(comparison
            ? comparison.deltas
                .filter((d) => listKey(d.list) === gated)
                .map(
                  (d) =>
                    `${regressions.includes(d) ? 'REGRESSION' : 'vs baseline'} ${d.metric}@${comparison.k}: ${d.a.toFixed(3)} → ${d.b.toFixed(3)} (${d.delta >= 0 ? '+' : ''}${d.delta.toFixed(3)}, p=${d.pValue.toFixed(3)}, ${d.pairs} queries)`,
                )
            : []),
          `run ${run.summary.id}: ${run.summary.done}/${run.summary.total} queries, ${run.summary.failures} failed call(s), stored in the data folder`,
        ].join('\n'),
      )
    }
    warnFailures(ctx, run)
    warnCoverage(ctx, metricsAt(k))
    if (run.summary.status === 'failed') return EXIT.failed
    if (failed) return EXIT.failed
    return allUnreached(run) ? EXIT.unreachable : EXIT.ok
  })
}

function readSet(path: string): GoldenSet {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    )
  }
  try {
    return parseGoldenSet(text, path)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

function thresholdOf(text: string): Threshold {
  try {
    return parseThreshold(text)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** `--baseline`: a run file (kept by CI), else the id of a run in the data folder. */
function loadBaseline(core: Core, given: string): EvalRun {
  if (existsSync(given)) {
    try {
      return parseStoredRun(readFileSync(given, 'utf8'), given)
    } catch (error) {
      throw new UsageError((error as Error).message)
    }
  }
  if (core.services.evaluation.runs.has(given)) return core.services.evaluation.runs.get(given)
  throw new UsageError(`--baseline ${given} is neither a run file nor the id of a stored run`)
}

function metricsTable(metrics: EvalMetrics): string {
  const k = metrics.k
  const pct = (value: number): string => value.toFixed(3)
  return table(metrics.rows, [
    {
      header: 'LIST',
      cell: (r) => (r.list.kind === 'provider' ? r.list.server : `merged (${r.list.fusion})`),
    },
    { header: 'PROFILE', cell: (r) => r.profileId ?? 'all' },
    { header: `RECALL@${k}`, cell: (r) => pct(r.values.recall), align: 'right' },
    { header: `P@${k}`, cell: (r) => pct(r.values.precision), align: 'right' },
    { header: 'MRR', cell: (r) => pct(r.values.mrr), align: 'right' },
    { header: `NDCG@${k}`, cell: (r) => pct(r.values.ndcg), align: 'right' },
    { header: 'HIT', cell: (r) => pct(r.values.hitRate), align: 'right' },
    {
      header: `JUDGED@${k}`,
      cell: (r) => (r.values.judgedAtK === null ? '-' : pct(r.values.judgedAtK)),
      align: 'right',
    },
    { header: 'FAIL', cell: (r) => pct(r.values.failureRate), align: 'right' },
    { header: 'P50', cell: (r) => ms(r.values.latencyP50Ms), align: 'right' },
    { header: 'P95', cell: (r) => ms(r.values.latencyP95Ms), align: 'right' },
  ])
}

function warnFailures(ctx: CliContext, run: EvalRun): void {
  const seen = new Set<string>()
  for (const result of run.results) {
    for (const provider of result.providers) {
      const key = `${provider.server}:${provider.error?.code}`
      if (provider.ok || seen.has(key)) continue
      seen.add(key)
      ctx.out.warn(`${provider.server}: ${provider.error?.code}: ${provider.error?.message}`)
    }
  }
  if (run.summary.error) ctx.out.warn(`the run failed: ${run.summary.error.message}`)
}

/** Names the lists whose figures rest on few judgments (judged@k below {@link LOW_COVERAGE}). */
function warnCoverage(ctx: CliContext, metrics: EvalMetrics): void {
  const low = metrics.rows.filter(
    (r) => !r.profileId && r.values.judgedAtK !== null && r.values.judgedAtK < LOW_COVERAGE,
  )
  if (low.length === 0) return
  const lists = low.map((r) => `${listKey(r.list)} ${r.values.judgedAtK!.toFixed(2)}`).join(', ')
  ctx.out.warn(
    `judged@${metrics.k} is below ${LOW_COVERAGE} for ${lists}: unjudged hits count as not relevant, so these figures understate those lists; judge their pool (the Evaluation panel) before trusting them`,
  )
}

/** No provider answered any query because none could be reached (or there was none). */
function allUnreached(run: EvalRun): boolean {
  const calls = run.results.flatMap((r) => r.providers)
  return calls.length === 0 || calls.every((p) => !p.ok && isUnreached(p.error))
}
