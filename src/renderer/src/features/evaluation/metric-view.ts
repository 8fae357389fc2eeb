import {
  LOW_COVERAGE,
  type EvalList,
  type EvalMetrics,
  type EvalRun,
  type MetricRow,
  type MetricValues,
  type PerQueryMetric,
  type QualityMetric,
} from '#shared/model/evaluation'
import type { FusionMode } from '#shared/model/operations'

const FUSIONS: readonly FusionMode[] = ['rrf', 'score', 'minmax']

export const FUSION_NAMES: Record<FusionMode, string> = {
  rrf: 'RRF',
  score: 'best score',
  minmax: 'min-max',
}

/** A stable key for a list (React keys, lookups). */
export const listKey = (list: EvalList): string =>
  list.kind === 'provider' ? `provider:${list.server}` : `merged:${list.fusion}`

/** `knowledgeSearch`, or `merged · RRF`. */
export const listLabel = (list: EvalList): string =>
  list.kind === 'provider' ? list.server : `merged · ${FUSION_NAMES[list.fusion]}`

/** Providers by name, then the merged list in each fusion. */
export function compareLists(a: EvalList, b: EvalList): number {
  if (a.kind !== b.kind) return a.kind === 'provider' ? -1 : 1
  if (a.kind === 'provider' && b.kind === 'provider') return a.server.localeCompare(b.server)
  return (
    FUSIONS.indexOf((a as { fusion: FusionMode }).fusion) -
    FUSIONS.indexOf((b as { fusion: FusionMode }).fusion)
  )
}

/** The table's order: every profile together first, then per profile; each by list. */
export function sortMetricRows(rows: readonly MetricRow[]): MetricRow[] {
  return [...rows].sort(
    (a, b) =>
      Number(a.profileId !== undefined) - Number(b.profileId !== undefined) ||
      (a.profileId ?? '').localeCompare(b.profileId ?? '') ||
      compareLists(a.list, b.list),
  )
}

/** `0.731`: quality metrics are 0…1. */
export const formatMetric = (value: number): string => value.toFixed(3)

/** `12%`, `0.4%`: shares of queries or calls. */
export function formatShare(value: number): string {
  const percent = value * 100
  if (percent === 0 || percent >= 10) return `${Math.round(percent)}%`
  return `${percent.toFixed(1)}%`
}

/** `84 ms`, `1.2 s`. */
export const formatLatency = (ms: number): string =>
  ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`

/** A latency quantile, or a dash when every call failed (there is no latency to speak of). */
const latency = (v: MetricValues, ms: number): string =>
  v.failureRate >= 1 ? '–' : formatLatency(ms)

/** One column of the metric table. */
export interface MetricColumn {
  id: keyof MetricValues
  label: (k: number) => string
  /** The header's tooltip: what the number means. */
  title: (k: number) => string
  text: (values: MetricValues) => string
}

export const METRIC_COLUMNS: readonly MetricColumn[] = [
  {
    id: 'recall',
    label: (k) => `Recall@${k}`,
    title: (k) => `Relevant documents in the top ${k} / relevant documents judged`,
    text: (v) => formatMetric(v.recall),
  },
  {
    id: 'precision',
    label: (k) => `P@${k}`,
    title: (k) => `Relevant documents in the top ${k} / ${k}`,
    text: (v) => formatMetric(v.precision),
  },
  {
    id: 'mrr',
    label: () => 'MRR',
    title: () => 'Mean reciprocal rank of the first relevant document',
    text: (v) => formatMetric(v.mrr),
  },
  {
    id: 'ndcg',
    label: (k) => `nDCG@${k}`,
    title: (k) => `Normalized discounted cumulative gain of the top ${k}, graded`,
    text: (v) => formatMetric(v.ndcg),
  },
  {
    id: 'hitRate',
    label: () => 'Hit rate',
    title: (k) => `Queries with a relevant document in the top ${k}`,
    text: (v) => formatShare(v.hitRate),
  },
  {
    id: 'judgedAtK',
    label: (k) => `Judged@${k}`,
    title: (k) =>
      `Share of the top ${k} that has a judgment. Unjudged hits count as misses: below ${formatShare(LOW_COVERAGE)} the metrics rest on few judgments`,
    text: (v) => (v.judgedAtK === null ? '–' : formatShare(v.judgedAtK)),
  },
  {
    id: 'failureRate',
    label: () => 'Failures',
    title: () => 'Calls that failed',
    text: (v) => formatShare(v.failureRate),
  },
  {
    id: 'latencyP50Ms',
    label: () => 'p50',
    title: () => 'Median latency of the calls',
    text: (v) => latency(v, v.latencyP50Ms),
  },
  {
    id: 'latencyP95Ms',
    label: () => 'p95',
    title: () => '95th percentile latency',
    text: (v) => latency(v, v.latencyP95Ms),
  },
]

/**
 * The rows (of one profile; undefined: over every profile) whose metrics rest on few judgments:
 * judged@k below {@link LOW_COVERAGE}.
 */
export function thinLists(rows: readonly MetricRow[], profileId?: string): MetricRow[] {
  return sortMetricRows(
    rows.filter(
      (row) =>
        row.profileId === profileId &&
        row.values.judgedAtK !== null &&
        row.values.judgedAtK < LOW_COVERAGE,
    ),
  )
}

/** One bar of the per-provider chart. */
export interface Bar {
  key: string
  label: string
  value: number
  /** Share of the chart's width, 0…100. */
  width: number
}

/**
 * The lists of one profile's rows (undefined: the rows over every profile), as bars of one
 * quality metric (0…1 wide).
 */
export function metricBars(
  rows: readonly MetricRow[],
  metric: QualityMetric,
  profileId?: string,
): Bar[] {
  return sortMetricRows(rows.filter((row) => row.profileId === profileId)).map((row) => {
    const value = row.values[metric]
    return {
      key: listKey(row.list),
      label: listLabel(row.list),
      value,
      width: Math.max(0, Math.min(100, value * 100)),
    }
  })
}

/** What a heatmap cell can show: a quality metric per query, or judged@k. */
export type HeatMetric = QualityMetric | 'judgedAtK'

/** Each heatmap metric: its name and a query's value in one list. */
export const HEAT_METRICS: Record<
  HeatMetric,
  { label: (k: number) => string; value: (cell: PerQueryMetric) => number | null }
> = {
  ndcg: { label: (k) => `nDCG@${k}`, value: (c) => c.ndcg },
  recall: { label: (k) => `Recall@${k}`, value: (c) => c.recall },
  precision: { label: (k) => `P@${k}`, value: (c) => c.precision },
  mrr: { label: () => 'Reciprocal rank', value: (c) => c.rr },
  hitRate: { label: (k) => `Hit@${k}`, value: (c) => (c.hit ? 1 : 0) },
  judgedAtK: { label: (k) => `Judged@${k}`, value: (c) => c.judgedAtK },
}

/** One cell of the heatmap; null where the list has no value for the query. */
export interface HeatCell {
  /** Null: judged@k of a list that returned nothing. */
  value: number | null
  failed: boolean
  /** A quality metric of a query without a relevant judgment: it says nothing. */
  unjudged: boolean
  /** The profile may not see the server: it was not asked (and is not counted). */
  hidden?: true
  /** Why it failed or was not asked, from the run's stored results. */
  reason?: string
}

/** The metrics the heatmap can show, as its Metric select offers them. */
export function heatMetricOptions(k: number): { value: HeatMetric; label: string }[] {
  return (Object.keys(HEAT_METRICS) as HeatMetric[]).map((m) => ({
    value: m,
    label: HEAT_METRICS[m].label(k),
  }))
}

/**
 * How a heatmap cell reads: nothing (the list has no value for the query), why it failed or
 * was not asked, a blank that says why it is blank, or its value.
 */
export type HeatCellShown =
  | { kind: 'none' }
  | { kind: 'why'; cell: HeatCell }
  | { kind: 'blank'; title: string; words: string }
  | { kind: 'value'; value: number }

export function heatCellShown(cell: HeatCell | null): HeatCellShown {
  if (cell === null) return { kind: 'none' }
  if (cell.failed || cell.hidden) return { kind: 'why', cell }
  if (cell.unjudged)
    return { kind: 'blank', title: 'No relevant judgment', words: 'no relevant judgment' }
  if (cell.value === null)
    return { kind: 'blank', title: 'The list was empty', words: 'the list was empty' }
  return { kind: 'value', value: cell.value }
}

const cellKey = (queryId: string, profileId: string, list: EvalList): string =>
  `${queryId}\u0000${profileId}\u0000${listKey(list)}`

/**
 * Why each failed or unasked cell of a run is so, by (query, profile, list): a provider's own
 * error, and for a merged list that every provider failed, each one's.
 */
export function cellReasons(run: Pick<EvalRun, 'results'>): Map<string, string> {
  const reasons = new Map<string, string>()
  for (const result of run.results) {
    const failed = result.providers.filter((p) => !p.ok)
    for (const provider of failed) {
      const list: EvalList = { kind: 'provider', server: provider.server }
      reasons.set(
        cellKey(result.queryId, result.profileId, list),
        provider.error?.message ?? `${provider.server} failed without saying why`,
      )
    }
    if (failed.length === 0 || failed.length < result.providers.length) continue
    const every = failed
      .map((p) => `${p.server}: ${p.error?.message ?? 'failed without saying why'}`)
      .join('; ')
    for (const fusion of FUSIONS) {
      reasons.set(
        cellKey(result.queryId, result.profileId, { kind: 'merged', fusion }),
        `No provider answered. ${every}`,
      )
    }
  }
  return reasons
}

export interface HeatRow {
  key: string
  queryId: string
  profileId: string
  label: string
  cells: (HeatCell | null)[]
}

export interface Heatmap {
  lists: EvalList[]
  rows: HeatRow[]
}

/**
 * Queries × lists, one value of `metric` per cell, in the run's query order. Rows name the
 * profile too when the run has several; `texts` gives a query's words (else its id shows).
 */
export function heatmap(
  metrics: Pick<EvalMetrics, 'perQuery'>,
  texts: ReadonlyMap<string, string> = new Map(),
  metric: HeatMetric = 'ndcg',
  reasons: ReadonlyMap<string, string> = new Map(),
): Heatmap {
  const lists = new Map<string, EvalList>()
  const rows = new Map<
    string,
    { queryId: string; profileId: string; cells: Map<string, PerQueryMetric> }
  >()
  for (const value of metrics.perQuery) {
    lists.set(listKey(value.list), value.list)
    const key = `${value.queryId}\u0000${value.profileId}`
    const row = rows.get(key) ?? {
      queryId: value.queryId,
      profileId: value.profileId,
      cells: new Map(),
    }
    row.cells.set(listKey(value.list), value)
    rows.set(key, row)
  }
  const ordered = [...lists.values()].sort(compareLists)
  const profiles = new Set([...rows.values()].map((row) => row.profileId))
  return {
    lists: ordered,
    rows: [...rows.entries()].map(([key, row]) => {
      const text = texts.get(row.queryId) ?? row.queryId
      return {
        key,
        queryId: row.queryId,
        profileId: row.profileId,
        label: profiles.size > 1 ? `${text} · ${row.profileId}` : text,
        cells: ordered.map((list): HeatCell | null => {
          const value = row.cells.get(listKey(list))
          if (!value) return null
          const cell: HeatCell = {
            value: HEAT_METRICS[metric].value(value),
            failed: value.failed,
            unjudged: metric !== 'judgedAtK' && value.relevant === 0,
          }
          if (value.hidden) cell.hidden = true
          const reason = reasons.get(cellKey(row.queryId, row.profileId, list))
          if (reason && (value.failed || value.hidden)) cell.reason = reason
          return cell
        }),
      }
    }),
  }
}

/**
 * The most accent a heatmap cell mixes into the surface (at value 1). Up to 55 %, --fg text
 * holds 4.5:1 on the mix in both schemes (6.8:1 light, 4.8:1 dark); past it neither dark nor
 * light text would over the whole range.
 */
export const HEAT_MAX = 55

/** A heatmap cell's colours: the accent mixed into the surface by the value, --fg text. */
export function heatStyle(value: number): { background: string; color: string } {
  const percent = Math.round(Math.max(0, Math.min(1, value)) * HEAT_MAX)
  return {
    background: `color-mix(in srgb, var(--accent) ${percent}%, var(--bg-raised))`,
    color: 'var(--fg)',
  }
}
