import type { EvalList, EvalMetrics, QualityMetric, RunComparison } from '#shared/model/evaluation'
import type { FusionMode } from '#shared/model/operations'
import { listKey } from './run-metrics'

/** A CI threshold: `[LIST:]METRIC[@K]=VALUE`, e.g. `ndcg@10=0.6` or `knowledgeSearch:mrr=0.5`. */
export interface Threshold {
  /** Absent: the gated merged list. */
  server?: string
  metric: QualityMetric
  k?: number
  min: number
  /** As written, for messages. */
  text: string
}

/** A regression is significant below this p-value (two-sided paired randomization test). */
export const SIGNIFICANCE = 0.05

const METRIC_NAMES: Record<string, QualityMetric> = {
  recall: 'recall',
  precision: 'precision',
  p: 'precision',
  mrr: 'mrr',
  ndcg: 'ndcg',
  hitrate: 'hitRate',
  hit_rate: 'hitRate',
  'hit-rate': 'hitRate',
}

/** Parses one `--min` value; throws an Error with a usable message when it is malformed. */
export function parseThreshold(text: string): Threshold {
  const match = /^(?:([^:=@\s]+):)?([a-z_-]+)(?:@(\d{1,3}))?=([0-9]*\.?[0-9]+)$/i.exec(text.trim())
  const metric = match && METRIC_NAMES[match[2]!.toLowerCase()]
  const min = match ? Number(match[4]) : NaN
  const k = match?.[3] === undefined ? undefined : Number(match[3])
  if (!match || !metric || !(min >= 0 && min <= 1) || (k !== undefined && (k < 1 || k > 100))) {
    throw new Error(
      `--min "${text}": write METRIC[@K]=VALUE with METRIC one of recall, precision, mrr, ndcg, hit_rate, K 1..100 and VALUE 0..1 (e.g. ndcg@10=0.6); prefix SERVER: for one provider's list`,
    )
  }
  const threshold: Threshold = { metric, min, text: text.trim() }
  if (match[1] !== undefined) threshold.server = match[1]
  if (k !== undefined) threshold.k = k
  return threshold
}

export interface ThresholdOutcome {
  threshold: string
  list: EvalList
  k: number
  value: number | null
  passed: boolean
  /** Why it failed without a value (no such list in the run). */
  reason?: string
}

/** Checks thresholds against metric tables by k (each threshold's own k, else `k`). */
export function checkThresholds(
  thresholds: readonly Threshold[],
  metricsAt: (k: number) => EvalMetrics,
  k: number,
  fusion: FusionMode,
): ThresholdOutcome[] {
  return thresholds.map((threshold) => {
    const at = threshold.k ?? k
    const list: EvalList = threshold.server
      ? { kind: 'provider', server: threshold.server }
      : { kind: 'merged', fusion }
    const row = metricsAt(at).rows.find((r) => !r.profileId && listKey(r.list) === listKey(list))
    if (!row) {
      return {
        threshold: threshold.text,
        list,
        k: at,
        value: null,
        passed: false,
        reason: `the run has no list ${listKey(list)}`,
      }
    }
    const value = row.values[threshold.metric]
    return { threshold: threshold.text, list, k: at, value, passed: value >= threshold.min }
  })
}

/** The deltas of the gated list that got significantly worse. */
export function significantRegressions(comparison: RunComparison, fusion: FusionMode) {
  const gated = listKey({ kind: 'merged', fusion })
  return comparison.deltas.filter(
    (d) => listKey(d.list) === gated && d.delta < 0 && d.pValue < SIGNIFICANCE,
  )
}
