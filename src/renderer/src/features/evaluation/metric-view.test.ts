import { describe, expect, it } from 'vitest'
import type { MetricRow, MetricValues, PerQueryMetric } from '#shared/model/evaluation'
import {
  formatLatency,
  formatShare,
  cellReasons,
  heatCellShown,
  heatMetricOptions,
  heatmap,
  HEAT_MAX,
  heatStyle,
  listLabel,
  METRIC_COLUMNS,
  metricBars,
  sortMetricRows,
  thinLists,
} from './metric-view'

const values = (ndcg: number): MetricValues => ({
  recall: ndcg,
  precision: ndcg / 2,
  mrr: ndcg,
  ndcg,
  hitRate: 1,
  judgedAtK: 1,
  failureRate: 0,
  latencyP50Ms: 10,
  latencyP95Ms: 20,
  queries: 3,
  judged: 3,
  failed: 0,
})

const rows: MetricRow[] = [
  { list: { kind: 'merged', fusion: 'minmax' }, values: values(0.5) },
  { list: { kind: 'provider', server: 'vault' }, profileId: 'alice', values: values(0.1) },
  { list: { kind: 'merged', fusion: 'rrf' }, values: values(0.7) },
  { list: { kind: 'provider', server: 'wiki' }, values: values(0.6) },
  { list: { kind: 'provider', server: 'docs' }, values: values(1.2) },
]

const cell = (
  queryId: string,
  profileId: string,
  server: string,
  ndcg: number,
  extra: Partial<PerQueryMetric> = {},
): PerQueryMetric => ({
  queryId,
  profileId,
  list: { kind: 'provider', server },
  recall: ndcg,
  precision: ndcg,
  rr: ndcg,
  ndcg,
  hit: ndcg > 0,
  failed: false,
  latencyMs: 5,
  relevant: 2,
  found: 1,
  judgedAtK: 1,
  ...extra,
})

describe('metric table', () => {
  it('lists the rows over every profile first: providers by name, then merged per fusion', () => {
    expect(sortMetricRows(rows).map((row) => [listLabel(row.list), row.profileId])).toEqual([
      ['docs', undefined],
      ['wiki', undefined],
      ['merged · RRF', undefined],
      ['merged · min-max', undefined],
      ['vault', 'alice'],
    ])
  })

  it('shows no latency for a list whose every call failed, rather than 0 ms', () => {
    const down = { ...values(0), failureRate: 1, failed: 3, latencyP50Ms: 0, latencyP95Ms: 0 }
    const latency = METRIC_COLUMNS.filter((c) => c.id.startsWith('latency'))
    expect(latency.map((column) => column.text(down))).toEqual(['–', '–'])
    expect(latency.map((column) => column.text(values(1)))).toEqual(['10 ms', '20 ms'])
  })

  it('shows judged@k as a share, a dash when no list had a document, and names the thin lists', () => {
    const judged = METRIC_COLUMNS.find((c) => c.id === 'judgedAtK')!
    expect(judged.label(10)).toBe('Judged@10')
    expect(judged.text({ ...values(1), judgedAtK: 0.625 })).toBe('63%')
    expect(judged.text({ ...values(1), judgedAtK: null })).toBe('–')
    const thin: MetricRow[] = [
      { list: { kind: 'provider', server: 'docs' }, values: { ...values(1), judgedAtK: 0.5 } },
      { list: { kind: 'provider', server: 'wiki' }, values: { ...values(1), judgedAtK: 0.8 } },
      { list: { kind: 'merged', fusion: 'rrf' }, values: { ...values(1), judgedAtK: 0.79 } },
      {
        list: { kind: 'provider', server: 'docs' },
        profileId: 'a',
        values: { ...values(1), judgedAtK: 0 },
      },
    ]
    expect(thinLists(thin).map((row) => listLabel(row.list))).toEqual(['docs', 'merged · RRF'])
    expect(thinLists(thin, 'a').map((row) => listLabel(row.list))).toEqual(['docs'])
  })

  it('writes shares as percentages and latencies in ms or s', () => {
    expect([0, 0.004, 0.125, 1].map(formatShare)).toEqual(['0%', '0.4%', '13%', '100%'])
    expect([84.4, 1234].map(formatLatency)).toEqual(['84 ms', '1.2 s'])
  })
})

describe('metricBars', () => {
  it('draws one bar per list over every profile, its width the value, never past the chart', () => {
    const bars = metricBars(rows, 'ndcg')
    expect(bars.map((bar) => [bar.label, bar.width])).toEqual([
      ['docs', 100],
      ['wiki', 60],
      ['merged · RRF', 70],
      ['merged · min-max', 50],
    ])
    expect(metricBars(rows, 'ndcg', 'alice').map((bar) => [bar.label, bar.width])).toEqual([
      ['vault', 10],
    ])
  })
})

describe('heatmap', () => {
  const perQuery = [
    cell('q1', 'carol', 'wiki', 0.5),
    cell('q1', 'carol', 'docs', 0.9),
    cell('q2', 'carol', 'docs', 0, { failed: true }),
    cell('q3', 'carol', 'wiki', 0, { relevant: 0 }),
  ]

  it('puts queries in run order against lists by name, with gaps where a list has none', () => {
    const map = heatmap({ perQuery }, new Map([['q1', 'vpn setup']]))
    expect(map.lists.map(listLabel)).toEqual(['docs', 'wiki'])
    expect(map.rows.map((row) => row.label)).toEqual(['vpn setup', 'q2', 'q3'])
    expect(map.rows[0]!.cells.map((c) => c?.value)).toEqual([0.9, 0.5])
    expect(map.rows[1]!.cells).toEqual([{ value: 0, failed: true, unjudged: false }, null])
    expect(map.rows[2]!.cells[1]).toEqual({ value: 0, failed: false, unjudged: true })
  })

  it('maps any metric: recall, reciprocal rank, hit (0 or 1) and judged@k', () => {
    const values = [
      cell('q1', 'carol', 'docs', 0.9, { recall: 0.25, rr: 0.5, hit: true, judgedAtK: 0.6 }),
      cell('q2', 'carol', 'docs', 0, {
        recall: 0,
        rr: 0,
        hit: false,
        judgedAtK: null,
        relevant: 0,
      }),
    ]
    const at = (metric: Parameters<typeof heatmap>[2]) =>
      heatmap({ perQuery: values }, new Map(), metric).rows.map((row) => row.cells[0])
    expect(at('recall').map((c) => c?.value)).toEqual([0.25, 0])
    expect(at('mrr').map((c) => c?.value)).toEqual([0.5, 0])
    expect(at('hitRate').map((c) => c?.value)).toEqual([1, 0])
    // Coverage means something for a query without a relevant judgment too: not marked unjudged.
    expect(at('judgedAtK')).toEqual([
      { value: 0.6, failed: false, unjudged: false },
      { value: null, failed: false, unjudged: false },
    ])
    expect(at('ndcg')[1]).toMatchObject({ unjudged: true })
  })

  it('gives a failed cell its reason, and marks a server hidden from the profile apart', () => {
    const hidden = 'server wiki is hidden from profile "Dan"'
    const run = {
      results: [
        {
          queryId: 'q2',
          profileId: 'carol',
          elapsedMs: 5,
          providers: [
            {
              server: 'docs',
              ok: false,
              error: { code: 'timeout' as const, message: 'late' },
              latencyMs: 5,
              hits: [],
            },
            {
              server: 'wiki',
              ok: false,
              error: { code: 'invalid_argument' as const, message: hidden },
              latencyMs: 0,
              hits: [],
            },
          ],
        },
      ],
    }
    const reasons = cellReasons(run)
    const map = heatmap(
      {
        perQuery: [
          cell('q2', 'carol', 'docs', 0, { failed: true }),
          cell('q2', 'carol', 'wiki', 0, { hidden: true }),
          {
            ...cell('q2', 'carol', 'docs', 0, { failed: true }),
            list: { kind: 'merged', fusion: 'rrf' },
          },
        ],
      },
      new Map(),
      'ndcg',
      reasons,
    )
    expect(map.rows[0]!.cells).toEqual([
      { value: 0, failed: true, unjudged: false, reason: 'late' },
      { value: 0, failed: false, unjudged: false, hidden: true, reason: hidden },
      {
        value: 0,
        failed: true,
        unjudged: false,
        reason: `No provider answered. docs: late; wiki: ${hidden}`,
      },
    ])
  })

  it('names the profile in each row when the run had several, as the same query differs per user', () => {
    const map = heatmap({
      perQuery: [cell('q1', 'carol', 'wiki', 1), cell('q1', 'alice', 'wiki', 0)],
    })
    expect(map.rows.map((row) => row.label)).toEqual(['q1 · carol', 'q1 · alice'])
  })

  it('colours a cell by its value, never past where its text stops holding 4.5:1', () => {
    expect(heatStyle(0)).toEqual({
      background: 'color-mix(in srgb, var(--accent) 0%, var(--bg-raised))',
      color: 'var(--fg)',
    })
    // One text colour for every value: no flip point where neither dark nor light text holds.
    expect(heatStyle(1).color).toBe('var(--fg)')
    expect(heatStyle(0.5).background).toContain(`${Math.round(HEAT_MAX / 2)}%`)
    expect(heatStyle(7).background).toContain(`${HEAT_MAX}%`)
    expect(HEAT_MAX).toBeLessThanOrEqual(55)
  })
})

describe('heatmap cells', () => {
  it('shows a value, or says why there is none: no value, no relevant judgment, an empty list', () => {
    expect(heatCellShown({ value: 0.5, failed: false, unjudged: false })).toEqual({
      kind: 'value',
      value: 0.5,
    })
    // Zero is a value: the list found nothing relevant.
    expect(heatCellShown({ value: 0, failed: false, unjudged: false })).toEqual({
      kind: 'value',
      value: 0,
    })
    expect(heatCellShown(null)).toEqual({ kind: 'none' })
    expect(heatCellShown({ value: 0, failed: false, unjudged: true })).toEqual({
      kind: 'blank',
      title: 'No relevant judgment',
      words: 'no relevant judgment',
    })
    expect(heatCellShown({ value: null, failed: false, unjudged: false })).toEqual({
      kind: 'blank',
      title: 'The list was empty',
      words: 'the list was empty',
    })
  })

  it('explains a failed or unasked cell before anything else it may be', () => {
    const failed = { value: 0, failed: true, unjudged: true, reason: 'late' }
    expect(heatCellShown(failed)).toEqual({ kind: 'why', cell: failed })
    const hidden = { value: null, failed: false, unjudged: false, hidden: true as const }
    expect(heatCellShown(hidden)).toEqual({ kind: 'why', cell: hidden })
  })

  it('offers every metric, named for the run’s k', () => {
    const options = heatMetricOptions(5)
    expect(options.map((o) => o.value)).toEqual([
      'ndcg',
      'recall',
      'precision',
      'mrr',
      'hitRate',
      'judgedAtK',
    ])
    expect(options[0]).toEqual({ value: 'ndcg', label: 'nDCG@5' })
    expect(options.find((o) => o.value === 'mrr')?.label).toBe('Reciprocal rank')
  })
})
