import { readFileSync, statSync } from 'node:fs'
import { LOW_COVERAGE } from '#shared/model/evaluation'
import {
  fixed4,
  formatTrecEval,
  MAX_TREC_CUTOFF,
  readTrecQrels,
  readTrecRun,
  trecEval,
  trecMeasureNames,
  trecValues,
  type TrecEvaluation,
} from '#core/services/eval/trec-eval'
import type { CommandOptions } from '../command-table'
import { integer } from '../args'
import type { CliContext } from '../context'
import { EXIT, UsageError, type ExitCode } from '../exit-codes'
import { table } from '../output'

/** A TREC file larger than this is refused before it is read. */
const MAX_FILE_BYTES = 256 * 1024 * 1024
const DEFAULT_CUTOFFS = '5,10'

type TrecFilesOptions = Pick<CommandOptions<'eval'>, 'qrels' | 'run' | 'k' | 'complete'>

/**
 * `eval --qrels QRELS --run RUN`: scores a TREC run file against qrels as trec_eval does, without
 * a server or the data folder; prints each measure under trec_eval's name beside the console's.
 */
export function trecFilesCommand(
  ctx: CliContext,
  words: string[],
  options: TrecFilesOptions,
  format: 'table' | 'json' | 'trec',
): ExitCode {
  if (words.length > 0) {
    throw new UsageError('eval --qrels/--run scores two files: leave out the SET.json')
  }
  if (!options.qrels || !options.run) {
    throw new UsageError('eval --qrels QRELS --run RUN needs both files')
  }
  const cutoffs = (options.k ?? DEFAULT_CUTOFFS)
    .split(',')
    .map((k) => integer('--k', k, 1, MAX_TREC_CUTOFF))
  const qrels = readTrecQrels(readText(options.qrels), options.qrels)
  const run = readTrecRun(readText(options.run), options.run)
  const evaluation = trecEval(qrels, run, { cutoffs, complete: options.complete ?? false })
  if (format === 'trec') ctx.out.text(formatTrecEval(evaluation))
  else if (format === 'json') ctx.out.result(jsonOf(evaluation, options))
  else ctx.out.text(tableOf(evaluation))
  warnings(ctx, evaluation)
  return EXIT.ok
}

function readText(path: string): string {
  try {
    if (statSync(path).size > MAX_FILE_BYTES) {
      throw new UsageError(`${path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`)
    }
    return readFileSync(path, 'utf8')
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    )
  }
}

function jsonOf(evaluation: TrecEvaluation, options: TrecFilesOptions): unknown {
  const { cutoffs } = evaluation
  return {
    qrels: options.qrels,
    run: options.run,
    runId: evaluation.runId,
    cutoffs,
    complete: evaluation.complete,
    // trec_eval's name → the console's (judged_k is the console's own: trec_eval has none).
    measures: Object.fromEntries([
      ...trecMeasureNames(cutoffs).map(({ trec, ours }) => [trec, ours]),
      ...cutoffs.map((k) => [`judged_${k}`, `judged@${k}`]),
    ]),
    queries: evaluation.queries.map((query) => ({
      qid: query.qid,
      ...(query.unranked ? { unranked: true } : {}),
      ...trecValues(query, cutoffs),
    })),
    all: { num_q: evaluation.all.num_q, ...trecValues(evaluation.all, cutoffs) },
    unjudgedQueries: evaluation.unjudgedQueries,
    unrankedQueries: evaluation.unrankedQueries,
  }
}

/**
 * A row per query and `all`; the header has the console's names, the first row trec_eval's.
 */
function tableOf(evaluation: TrecEvaluation): string {
  const { cutoffs } = evaluation
  const names = [
    ...trecMeasureNames(cutoffs),
    ...cutoffs.map((k) => ({ trec: `judged_${k}`, ours: `judged@${k}` })),
  ]
  type Row = { qid: string; values: Record<string, number | null> }
  const rows: Row[] = [
    ...evaluation.queries.map((q) => ({ qid: q.qid, values: trecValues(q, cutoffs) })),
    { qid: 'all', values: trecValues(evaluation.all, cutoffs) },
  ]
  const header = { qid: 'trec_eval', values: {} } as Row
  return table<Row>(
    [header, ...rows],
    [
      { header: 'QUERY', cell: (r) => r.qid },
      ...names.map(({ trec, ours }) => ({
        header: ours.toUpperCase(),
        cell: (r: Row) => {
          if (r === header) return trec.startsWith('judged_') ? '(ours)' : trec
          const value = r.values[trec]
          return value === null || value === undefined ? '-' : fixed4(value)
        },
        align: 'right' as const,
      })),
    ],
  )
}

function warnings(ctx: CliContext, evaluation: TrecEvaluation): void {
  const few = (qids: string[]): string =>
    qids.length > 10
      ? `${qids.slice(0, 10).join(', ')} and ${qids.length - 10} more`
      : qids.join(', ')
  const { unjudgedQueries: unjudged, unrankedQueries: unranked } = evaluation
  if (unjudged.length > 0) {
    ctx.out.warn(
      `${unjudged.length} quer${unjudged.length === 1 ? 'y' : 'ies'} of the run ha${unjudged.length === 1 ? 's' : 've'} no judgments and ${unjudged.length === 1 ? 'is' : 'are'} left out, as trec_eval does: ${few(unjudged)}`,
    )
  }
  if (unranked.length > 0) {
    ctx.out.warn(
      evaluation.complete
        ? `${unranked.length} judged quer${unranked.length === 1 ? 'y has' : 'ies have'} no run lines and score${unranked.length === 1 ? 's' : ''} 0 in the means (--complete): ${few(unranked)}`
        : `${unranked.length} judged quer${unranked.length === 1 ? 'y has' : 'ies have'} no run lines and ${unranked.length === 1 ? 'is' : 'are'} left out of the means; --complete (trec_eval -c) counts ${unranked.length === 1 ? 'it' : 'them'} as 0: ${few(unranked)}`,
    )
  }
  evaluation.cutoffs.forEach((k, i) => {
    const judged = evaluation.all.judged[i]
    if (judged === null || judged === undefined || judged >= LOW_COVERAGE) return
    ctx.out.warn(
      `judged@${k} is ${fixed4(judged)}: ${Math.round((1 - judged) * 100)}% of the top ${k} has no judgment and counts as not relevant, so these figures understate the run; judge those documents (the Evaluation panel's pool) before trusting them`,
    )
  })
}
