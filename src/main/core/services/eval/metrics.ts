import type { Grade } from '#shared/model/evaluation'
import { quantileSorted } from '../../pool/health-series'

/** A query's judgments: document key → grade (0 = judged not relevant). */
export type Qrels = ReadonlyMap<string, Grade>

/** One query's quality values for one ranked list, cut at k. */
export interface QueryScores {
  recall: number
  precision: number
  /** Reciprocal rank of the first relevant document within the top k; 0 when none. */
  rr: number
  ndcg: number
  hit: boolean
  /** Relevant documents judged (grade ≥ 1). */
  relevant: number
  /** Relevant documents in the top k. */
  found: number
  /** Share of the top k that has a judgment; null when the list is empty. */
  judged: number | null
}

/**
 * The top k distinct documents of a ranked list: a document that comes back more than once (two
 * passages of one file) counts at its first rank only, as trec_eval requires unique documents.
 */
export function topK(ranked: readonly string[], k: number): string[] {
  const seen = new Set<string>()
  const top: string[] = []
  for (const key of ranked) {
    if (top.length === k) break
    if (seen.has(key)) continue
    seen.add(key)
    top.push(key)
  }
  return top
}

/**
 * Quality of one ranked list for one query, at cutoff k (trec_eval conventions, relevant =
 * grade ≥ 1, unjudged = not relevant):
 * - recall@k = found / relevant; precision@k = found / k (k, not the list length, as `P_k`);
 * - RR@k = 1 / rank of the first relevant document in the top k;
 * - nDCG@k = DCG@k / IDCG@k with DCG@k = Σ_{i ≤ k} grade_i / log2(i + 1) (gain = grade, as
 *   `ndcg_cut`), IDCG@k the DCG of the judged grades sorted best first.
 * A query without a relevant judgment scores 0 everywhere (callers leave it out of means).
 */
export function scoreQuery(ranked: readonly string[], qrels: Qrels, k: number): QueryScores {
  const top = topK(ranked, k)
  let found = 0
  let rr = 0
  let dcg = 0
  top.forEach((key, index) => {
    const grade = qrels.get(key) ?? 0
    if (grade <= 0) return
    found++
    if (rr === 0) rr = 1 / (index + 1)
    dcg += grade / Math.log2(index + 2)
  })
  const grades = [...qrels.values()].filter((grade) => grade > 0)
  const relevant = grades.length
  if (relevant === 0) {
    return {
      recall: 0,
      precision: 0,
      rr: 0,
      ndcg: 0,
      hit: false,
      relevant: 0,
      found: 0,
      judged: judgedShare(top, (key) => qrels.has(key)),
    }
  }
  const ideal = dcgOf(grades.sort((a, b) => b - a).slice(0, k))
  return {
    recall: found / relevant,
    precision: found / k,
    rr,
    ndcg: dcg / ideal,
    hit: found > 0,
    relevant,
    found,
    judged: judgedShare(top, (key) => qrels.has(key)),
  }
}

/**
 * Judged coverage of a top k: the share of its documents that have a judgment (any grade, 0
 * included). Unjudged documents count as not relevant, so a metric over a list with little
 * coverage says little. Null for an empty list (nothing rests on a missing judgment).
 */
export function judgedShare(
  top: readonly string[],
  isJudged: (key: string) => boolean,
): number | null {
  if (top.length === 0) return null
  let judged = 0
  for (const key of top) if (isJudged(key)) judged++
  return judged / top.length
}

/** DCG of grades in rank order: Σ grade_i / log2(i + 1), ranks from 1. */
export function dcgOf(grades: readonly number[]): number {
  return grades.reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0)
}

export const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length

/** The q-quantile (0..1) with linear interpolation between ranks, as Health's latencies. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0
  return quantileSorted(
    [...values].sort((a, b) => a - b),
    q,
  )
}
