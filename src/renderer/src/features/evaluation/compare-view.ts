import type { EvalList, MetricDelta, QualityMetric, RunComparison } from '#shared/model/evaluation'
import type { Tone } from '../../ui'
import { compareLists, listKey } from './metric-view'

/** A change counts as real below this p-value (two-sided paired randomization test). */
export const ALPHA = 0.05

/** One list's deltas, one per quality metric (absent where the comparison has none). */
export interface DeltaRow {
  key: string
  list: EvalList
  deltas: Partial<Record<QualityMetric, MetricDelta>>
}

/** The comparison's deltas as table rows: providers by name, then the merged lists. */
export function deltaRows(deltas: readonly MetricDelta[]): DeltaRow[] {
  const rows = new Map<string, DeltaRow>()
  for (const delta of deltas) {
    const key = listKey(delta.list)
    const row = rows.get(key) ?? { key, list: delta.list, deltas: {} }
    row.deltas[delta.metric] = delta
    rows.set(key, row)
  }
  return [...rows.values()].sort((a, b) => compareLists(a.list, b.list))
}

/** `+0.052`, `−0.010`, `±0.000`: the sign always shows. */
export function formatDelta(delta: number): string {
  const text = Math.abs(delta).toFixed(3)
  if (text === '0.000') return '±0.000'
  return `${delta > 0 ? '+' : '−'}${text}`
}

/** `p 0.003`, `p < 0.001`. */
export const formatP = (p: number): string => (p < 0.001 ? 'p < 0.001' : `p ${p.toFixed(3)}`)

/** How a delta reads: better or worse when significant, else unchanged within noise. */
export function deltaVerdict(delta: Pick<MetricDelta, 'delta' | 'pValue'>): {
  tone: Tone
  word: 'better' | 'worse' | 'no significant change'
} {
  if (delta.pValue >= ALPHA || delta.delta === 0) {
    return { tone: 'neutral', word: 'no significant change' }
  }
  return delta.delta > 0 ? { tone: 'ok', word: 'better' } : { tone: 'bad', word: 'worse' }
}

/** What the comparison found, in one line for the summary. */
export function comparisonSummary(comparison: RunComparison): string {
  const significant = comparison.deltas.filter((d) => deltaVerdict(d).tone !== 'neutral')
  const worse = significant.filter((d) => d.delta < 0).length
  const better = significant.length - worse
  const parts = [
    significant.length === 0
      ? 'no significant change in any metric'
      : `${better} significantly better, ${worse} significantly worse`,
    `${comparison.better.length} queries up, ${comparison.worse.length} down`,
    `${comparison.lostDocuments.length} relevant documents lost`,
  ]
  return parts.join(' · ')
}
