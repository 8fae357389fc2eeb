import { describe, expect, it } from 'vitest'
import type { MetricDelta, RunComparison } from '#shared/model/evaluation'
import { comparisonSummary, deltaRows, deltaVerdict, formatDelta, formatP } from './compare-view'

const delta = (
  server: string | null,
  metric: MetricDelta['metric'],
  change: number,
  pValue: number,
): MetricDelta => ({
  list: server ? { kind: 'provider', server } : { kind: 'merged', fusion: 'rrf' },
  metric,
  a: 0.5,
  b: 0.5 + change,
  delta: change,
  pValue,
  pairs: 30,
})

describe('deltaRows', () => {
  it('gathers each list’s metrics in one row, providers first', () => {
    const rows = deltaRows([
      delta(null, 'ndcg', 0.1, 0.01),
      delta('wiki', 'ndcg', -0.2, 0.001),
      delta('wiki', 'mrr', 0, 1),
      delta('docs', 'recall', 0.05, 0.4),
    ])
    expect(rows.map((row) => [row.key, Object.keys(row.deltas)])).toEqual([
      ['provider:docs', ['recall']],
      ['provider:wiki', ['ndcg', 'mrr']],
      ['merged:rrf', ['ndcg']],
    ])
  })
})

describe('deltaVerdict', () => {
  it('calls a change better or worse only when it is significant', () => {
    expect(deltaVerdict({ delta: 0.1, pValue: 0.01 })).toEqual({ tone: 'ok', word: 'better' })
    expect(deltaVerdict({ delta: -0.1, pValue: 0.049 })).toEqual({ tone: 'bad', word: 'worse' })
    expect(deltaVerdict({ delta: -0.3, pValue: 0.05 }).word).toBe('no significant change')
    expect(deltaVerdict({ delta: 0, pValue: 0 }).word).toBe('no significant change')
  })
})

describe('formatting', () => {
  it('always shows the sign of a delta, with a true minus', () => {
    expect([0.0523, -0.01, 0, -0.0001].map(formatDelta)).toEqual([
      '+0.052',
      '−0.010',
      '±0.000',
      '±0.000',
    ])
  })

  it('writes tiny p-values as a bound', () => {
    expect([0.0004, 0.0312].map(formatP)).toEqual(['p < 0.001', 'p 0.031'])
  })

  it('sums a comparison up in one line', () => {
    const comparison = {
      deltas: [delta('wiki', 'ndcg', -0.2, 0.001), delta('docs', 'ndcg', 0.01, 0.6)],
      better: [],
      worse: [{}, {}],
      lostDocuments: [{}],
    } as unknown as RunComparison
    expect(comparisonSummary(comparison)).toBe(
      '0 significantly better, 1 significantly worse · 0 queries up, 2 down · 1 relevant documents lost',
    )
  })
})
