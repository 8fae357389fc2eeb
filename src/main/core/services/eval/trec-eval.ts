import { ConsoleError } from '#shared/errors'
import { dcgOf, judgedShare, mean } from './metrics'

/**
 * A TREC run file scored against TREC qrels the way trec_eval scores it, for the measures
 * `map`, `recip_rank`, `P_k`, `recall_k`, `ndcg_cut_k` and the counts `num_ret`, `num_rel`,
 * `num_rel_ret`, so a person can cross-check the console against the tool their field uses:
 *
 * - qrels `qid iter docno rel`: rel is an integer as written (`atol`: `2.7` reads as 2, grades
 *   above 3 are kept); rel ≥ 1 is relevant for the binary measures; rel < 0 means "in the pool,
 *   not judged"; a docno absent from the qrels is unjudged; unjudged counts as not relevant;
 * - run `qid Q0 docno rank score tag`: the rank field is ignored; a query's documents are ranked
 *   by score, highest first, ties broken by docno in descending byte order (trec_eval's
 *   `comp_sim_docno`);
 * - a query is evaluated when it has qrels lines and run lines; queries of the run without qrels
 *   are ignored; queries of the qrels without run lines are ignored too, unless `complete`
 *   (trec_eval's `-c`): then each is scored as an empty ranking (zero everywhere, `num_rel` as
 *   judged) and counts in the means;
 * - `recall_k` divides by every relevant document judged for the query; `ndcg_cut_k` takes the
 *   grade itself as gain with a log2(rank + 1) discount, against the ideal ordering of every
 *   judged grade ≥ 1; `map` and `recip_rank` read the whole ranking (no cutoff); `P_k` divides by
 *   k even when fewer were returned;
 * - queries and documents are ordered by byte comparison (`strcmp`), so the order of the output
 *   and of the sums is trec_eval's.
 * `judged_k` is the console's own: the share of the top k (the documents returned, at most k)
 * that has a judgment (rel ≥ 0).
 */

/** Judgments: query id → docno → rel, as written (may be negative). */
export type TrecQrels = Map<string, Map<string, number>>

export interface TrecRunFile {
  /** Query id → its lines, in file order. */
  queries: Map<string, { docno: string; score: number; tag: string }[]>
}

export interface TrecEvalOptions {
  /** Cutoffs for P, recall, ndcg_cut and judged (sorted, without duplicates). */
  cutoffs: number[]
  /** trec_eval's `-c`: queries with judgments but no run lines count, as empty rankings. */
  complete: boolean
}

/** One query's measures; per-cutoff arrays follow `cutoffs`. */
export interface TrecQueryEval {
  qid: string
  /** The run has no lines for this query (scored as an empty ranking under `complete`). */
  unranked: boolean
  num_ret: number
  num_rel: number
  num_rel_ret: number
  map: number
  recip_rank: number
  P: number[]
  recall: number[]
  ndcg_cut: number[]
  /** Share of the top k that is judged; null when the run returned nothing for the query. */
  judged: (number | null)[]
}

export interface TrecEvaluation {
  runId: string
  cutoffs: number[]
  complete: boolean
  queries: TrecQueryEval[]
  all: Omit<TrecQueryEval, 'qid' | 'unranked'> & { num_q: number }
  /** Queries of the run that have no judgments (ignored, as trec_eval does). */
  unjudgedQueries: string[]
  /** Queries with judgments but no run lines (ignored unless `complete`). */
  unrankedQueries: string[]
}

/** trec_eval's default cutoffs are larger; the console's own runs keep at most 100. */
export const MAX_TREC_CUTOFF = 10_000

/** Reads qrels: four whitespace-separated fields a line; `#` lines are comments. */
export function readTrecQrels(text: string, name: string): TrecQrels {
  const qrels: TrecQrels = new Map()
  for (const { fields, line } of trecLines(text)) {
    const [qid, , docno, rel] = fields
    if (fields.length !== 4 || !/^[+-]?\d+(\.\d*)?$/.test(rel!)) {
      throw malformed(name, line, 'qid iter docno rel, with rel an integer')
    }
    const judged = qrels.get(qid!) ?? new Map<string, number>()
    if (judged.has(docno!)) {
      throw new ConsoleError({
        code: 'invalid_argument',
        message: `${name} line ${line}: document ${docno} is judged twice for query ${qid} (trec_eval refuses duplicates): keep one line`,
      })
    }
    judged.set(docno!, Math.trunc(Number(rel)))
    qrels.set(qid!, judged)
  }
  return qrels
}

/**
 * Reads a run file: six whitespace-separated fields a line (trec_eval ignores what follows the
 * sixth); `#` lines are comments.
 */
export function readTrecRun(text: string, name: string): TrecRunFile {
  const queries: TrecRunFile['queries'] = new Map()
  const seen = new Map<string, Set<string>>()
  for (const { fields, line } of trecLines(text)) {
    const [qid, , docno, , score, tag] = fields
    const value = Number(score)
    if (fields.length < 6 || !Number.isFinite(value)) {
      throw malformed(name, line, 'qid Q0 docno rank score tag, with score a number')
    }
    const docs = seen.get(qid!) ?? new Set<string>()
    if (docs.has(docno!)) {
      throw new ConsoleError({
        code: 'invalid_argument',
        message: `${name} line ${line}: document ${docno} appears twice for query ${qid} (trec_eval refuses duplicates): keep one line`,
      })
    }
    docs.add(docno!)
    seen.set(qid!, docs)
    const list = queries.get(qid!) ?? []
    list.push({ docno: docno!, score: value, tag: tag! })
    queries.set(qid!, list)
  }
  return { queries }
}

/** A query's docnos in trec_eval's order: score descending, then docno descending (bytes). */
export function rankTrec(lines: readonly { docno: string; score: number }[]): string[] {
  return [...lines]
    .sort((a, b) => b.score - a.score || compareBytes(b.docno, a.docno))
    .map((line) => line.docno)
}

/** Scores a run against qrels as trec_eval does (see the module comment). */
export function trecEval(
  qrels: TrecQrels,
  run: TrecRunFile,
  options: TrecEvalOptions,
): TrecEvaluation {
  const cutoffs = [...new Set(options.cutoffs)].sort((a, b) => a - b)
  const qids = [...qrels.keys()].sort(compareBytes)
  const unrankedQueries = qids.filter((qid) => !run.queries.has(qid))
  const unjudgedQueries = [...run.queries.keys()]
    .filter((qid) => !qrels.has(qid))
    .sort(compareBytes)
  const queries: TrecQueryEval[] = []
  let runId = ''
  for (const qid of qids) {
    const lines = run.queries.get(qid)
    if (!lines && !options.complete) continue
    if (lines) runId = lines[0]!.tag
    queries.push(scoreTrecQuery(qid, lines ? rankTrec(lines) : undefined, qrels.get(qid)!, cutoffs))
  }
  if (queries.length === 0) {
    throw new ConsoleError({
      code: 'invalid_argument',
      message:
        'no query has both judgments and run lines: check that the qrels and the run use the same query ids',
    })
  }
  // trec_eval averages over the queries evaluated; under -c that is every query of the qrels.
  const count = queries.length
  const average = (values: number[]): number => values.reduce((sum, v) => sum + v, 0) / count
  const perCutoff = (pick: (q: TrecQueryEval) => number[]): number[] =>
    cutoffs.map((_, i) => average(queries.map((q) => pick(q)[i]!)))
  const total = (pick: (q: TrecQueryEval) => number): number =>
    queries.reduce((sum, q) => sum + pick(q), 0)
  return {
    runId: runId || ([...run.queries.values()][0]?.[0]?.tag ?? ''),
    cutoffs,
    complete: options.complete,
    queries,
    all: {
      num_q: count,
      num_ret: total((q) => q.num_ret),
      num_rel: total((q) => q.num_rel),
      num_rel_ret: total((q) => q.num_rel_ret),
      map: average(queries.map((q) => q.map)),
      recip_rank: average(queries.map((q) => q.recip_rank)),
      P: perCutoff((q) => q.P),
      recall: perCutoff((q) => q.recall),
      ndcg_cut: perCutoff((q) => q.ndcg_cut),
      judged: cutoffs.map((_, i) => {
        const values = queries.flatMap((q) => (q.judged[i] === null ? [] : [q.judged[i]!]))
        return values.length === 0 ? null : mean(values)
      }),
    },
    unjudgedQueries,
    unrankedQueries,
  }
}

/** One query: `ranked` docnos best first (undefined: no run lines, scored as an empty ranking). */
function scoreTrecQuery(
  qid: string,
  ranked: string[] | undefined,
  judged: Map<string, number>,
  cutoffs: number[],
): TrecQueryEval {
  const docs = ranked ?? []
  // The rel of each rank: a judged grade, or -1 for a document the qrels do not hold.
  const rels = docs.map((docno) => judged.get(docno) ?? -1)
  const grades = [...judged.values()].filter((rel) => rel >= 1)
  const numRel = grades.length
  let relSoFar = 0
  let apSum = 0
  let firstRelevant = 0
  rels.forEach((rel, i) => {
    if (rel < 1) return
    relSoFar++
    apSum += relSoFar / (i + 1)
    if (firstRelevant === 0) firstRelevant = i + 1
  })
  const relevantIn = (k: number): number => rels.slice(0, k).filter((rel) => rel >= 1).length
  const ideal = grades.sort((a, b) => b - a)
  return {
    qid,
    unranked: ranked === undefined,
    num_ret: docs.length,
    num_rel: numRel,
    num_rel_ret: relSoFar,
    map: relSoFar > 0 ? apSum / numRel : 0,
    recip_rank: firstRelevant > 0 ? 1 / firstRelevant : 0,
    P: cutoffs.map((k) => relevantIn(k) / k),
    recall: cutoffs.map((k) => (numRel === 0 ? 0 : relevantIn(k) / numRel)),
    ndcg_cut: cutoffs.map((k) => {
      const idcg = dcgOf(ideal.slice(0, k))
      const dcg = dcgOf(rels.slice(0, k).map((rel) => Math.max(0, rel)))
      return idcg > 0 ? dcg / idcg : 0
    }),
    judged: cutoffs.map((k) =>
      judgedShare(docs.slice(0, k), (docno) => (judged.get(docno) ?? -1) >= 0),
    ),
  }
}

/** The measures' names: trec_eval's beside the console's. */
export function trecMeasureNames(cutoffs: readonly number[]): { trec: string; ours: string }[] {
  return [
    { trec: 'map', ours: 'map' },
    { trec: 'recip_rank', ours: 'mrr' },
    ...cutoffs.flatMap((k) => [
      { trec: `P_${k}`, ours: `precision@${k}` },
      { trec: `recall_${k}`, ours: `recall@${k}` },
      { trec: `ndcg_cut_${k}`, ours: `ndcg@${k}` },
    ]),
  ]
}

/** A query's (or `all`'s) values by trec_eval name (`judged_k` is the console's own). */
export function trecValues(
  values: Omit<TrecQueryEval, 'qid' | 'unranked'>,
  cutoffs: readonly number[],
): Record<string, number | null> {
  const out: Record<string, number | null> = {
    num_ret: values.num_ret,
    num_rel: values.num_rel,
    num_rel_ret: values.num_rel_ret,
    map: values.map,
    recip_rank: values.recip_rank,
  }
  cutoffs.forEach((k, i) => (out[`P_${k}`] = values.P[i]!))
  cutoffs.forEach((k, i) => (out[`recall_${k}`] = values.recall[i]!))
  cutoffs.forEach((k, i) => (out[`ndcg_cut_${k}`] = values.ndcg_cut[i]!))
  cutoffs.forEach((k, i) => (out[`judged_${k}`] = values.judged[i]!))
  return out
}

/**
 * The evaluation as `trec_eval -q` prints it (`-c` too, for a `complete` one): per query, then
 * `all`, one `measure<TAB>qid<TAB>value` line each, in trec_eval's measure order, so the lines
 * can be compared with trec_eval's own (`judged_k` is not printed: trec_eval has no such measure).
 */
export function formatTrecEval(evaluation: TrecEvaluation): string {
  const out: string[] = []
  const line = (name: string, qid: string, value: string): void => {
    out.push(`${name.padEnd(22)}\t${qid}\t${value}`)
  }
  const measures = (qid: string, values: Omit<TrecQueryEval, 'qid' | 'unranked'>): void => {
    for (const [name, value] of Object.entries(trecValues(values, evaluation.cutoffs))) {
      if (name.startsWith('judged_')) continue
      line(name, qid, name.startsWith('num_') ? String(value) : fixed4(value!))
    }
  }
  for (const query of evaluation.queries) measures(query.qid, query)
  line('runid', 'all', evaluation.runId)
  line('num_q', 'all', String(evaluation.all.num_q))
  measures('all', evaluation.all)
  return `${out.join('\n')}\n`
}

/**
 * `printf("%6.4f")` of a value in [0, ∞): rounded to 4 decimals from its exact binary value, a
 * tie to even as glibc does (`toFixed` rounds a tie up: 1/32 = 0.03125 would print 0.0313 where
 * trec_eval prints 0.0312).
 */
export function fixed4(value: number): string {
  if (!Number.isFinite(value) || value < 0) return value.toFixed(4)
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, value)
  const bits = view.getBigUint64(0)
  const exponent = Number((bits >> 52n) & 0x7ffn)
  const fraction = bits & ((1n << 52n) - 1n)
  // value = mantissa × 2^power exactly.
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n)
  const power = (exponent === 0 ? 1 : exponent) - 1075
  let scaled: bigint
  if (power >= 0) {
    scaled = mantissa * 10_000n * (1n << BigInt(power))
  } else {
    const denominator = 1n << BigInt(-power)
    const numerator = mantissa * 10_000n
    scaled = numerator / denominator
    const twice = 2n * (numerator % denominator)
    if (twice > denominator || (twice === denominator && scaled % 2n === 1n)) scaled++
  }
  const digits = scaled.toString().padStart(5, '0')
  return `${digits.slice(0, -4)}.${digits.slice(-4)}`
}

/** `strcmp` on the UTF-8 bytes. */
export function compareBytes(a: string, b: string): number {
  if (isAscii(a) && isAscii(b)) return a < b ? -1 : a > b ? 1 : 0
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

// eslint-disable-next-line no-control-regex
const isAscii = (text: string): boolean => /^[\x00-\x7f]*$/.test(text)

function* trecLines(text: string): Generator<{ fields: string[]; line: number }> {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!
    // trec_eval skips a line whose first character is `#`; blank lines carry nothing.
    if (raw.startsWith('#') || raw.trim() === '') continue
    yield { fields: raw.trim().split(/\s+/), line: i + 1 }
  }
}

const malformed = (name: string, line: number, shape: string): ConsoleError =>
  new ConsoleError({
    code: 'invalid_argument',
    message: `${name} line ${line} is not a TREC line (${shape}): fix or remove it`,
  })
