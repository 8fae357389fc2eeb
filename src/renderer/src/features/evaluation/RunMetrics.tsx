import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import {
  QUALITY_METRICS,
  type EvalMetrics,
  type EvalRunSummary,
  type QualityMetric,
} from '../../../../shared/model/evaluation'
import { Banner, Select, Spinner, Table } from '../../ui'
import {
  formatMetric,
  heatmap,
  heatStyle,
  listKey,
  listLabel,
  METRIC_COLUMNS,
  metricBars,
  sortMetricRows,
} from './metric-view'
import { evalQueries } from './queries'
import { runTime } from './RunHistory'

const METRIC_NAMES: Record<QualityMetric, (k: number) => string> = {
  recall: (k) => `Recall@${k}`,
  precision: (k) => `Precision@${k}`,
  mrr: () => 'MRR',
  ndcg: (k) => `nDCG@${k}`,
  hitRate: (k) => `Hit rate@${k}`,
}

const LATENCY: ReadonlySet<string> = new Set(['latencyP50Ms', 'latencyP95Ms'])

/** A finished run's metric table, per-list bars and per-query heatmap. */
export function RunMetrics({ run }: { run: EvalRunSummary }): React.JSX.Element {
  const metrics = useQuery({
    ...evalQueries.metrics(run.id, run.k),
    enabled: run.status !== 'running',
  })
  const stored = useQuery(evalQueries.run(run.id))
  const texts = useMemo(
    () => new Map(stored.data?.queries.map((q) => [q.id, q.query]) ?? []),
    [stored.data],
  )
  const [profile, setProfile] = useState('')
  if (run.status === 'running') {
    return <Spinner label="Metrics come once the run has finished…" />
  }
  if (metrics.isPending) return <Spinner label="Computing the metrics…" />
  if (metrics.isError) {
    return (
      <Banner tone="bad" title="Cannot compute the metrics of this run">
        {metrics.error.message}
      </Banner>
    )
  }
  return (
    <section className="eval-metrics" aria-label={`Metrics of the run of ${runTime(run)}`}>
      {run.status !== 'done' && (
        <Banner
          tone="warn"
          title={`This run ${run.status === 'failed' ? 'failed' : 'was cancelled'}`}
        >
          {run.error?.message ?? 'Metrics cover the queries it finished.'}
        </Banner>
      )}
      <ProfilePicker metrics={metrics.data} profile={profile} onChange={setProfile} />
      <MetricTable
        metrics={metrics.data}
        profile={profile || undefined}
        imported={run.imported === true}
      />
      <div className="eval-charts">
        <ListBars metrics={metrics.data} profile={profile || undefined} />
        <QueryHeatmap metrics={metrics.data} profile={profile || undefined} texts={texts} />
      </div>
    </section>
  )
}

/** Whose rows the table and charts show: every profile together, or one. */
function ProfilePicker({
  metrics,
  profile,
  onChange,
}: {
  metrics: EvalMetrics
  profile: string
  onChange: (profile: string) => void
}): React.JSX.Element | null {
  const profiles = [...new Set(metrics.rows.flatMap((row) => row.profileId ?? []))].sort()
  if (profiles.length < 2) return null
  return (
    <Select
      label="Profile"
      inline
      value={profile}
      options={[
        { value: '', label: 'Every profile' },
        ...profiles.map((id) => ({ value: id, label: id })),
      ]}
      onChange={onChange}
      fieldClassName="eval-metrics__profile"
    />
  )
}

function MetricTable({
  metrics,
  profile,
  imported,
}: {
  metrics: EvalMetrics
  profile: string | undefined
  /** A TREC run read from a file: no call was made, so there is no latency to show. */
  imported: boolean
}): React.JSX.Element {
  const rows = sortMetricRows(metrics.rows.filter((row) => row.profileId === profile))
  const columns = imported ? METRIC_COLUMNS.filter((c) => !LATENCY.has(c.id)) : METRIC_COLUMNS
  return (
    <Table label="Metrics" className="eval-metric-table">
      <thead>
        <tr>
          <th scope="col">List</th>
          {columns.map((column) => (
            <th key={column.id} scope="col" className="num" title={column.title(metrics.k)}>
              {column.label(metrics.k)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const name = listLabel(row.list)
          return (
            <tr
              key={`${listKey(row.list)}:${row.profileId ?? ''}`}
              aria-label={name}
              className={row.list.kind === 'merged' ? 'eval-row--merged' : undefined}
            >
              <th scope="row" className="eval-list-name">
                {name}
              </th>
              {columns.map((column) => (
                <td key={column.id} className="num">
                  {column.text(row.values)}
                </td>
              ))}
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}

/** One bar per list for a chosen quality metric (plain CSS, text beside each bar). */
function ListBars({
  metrics,
  profile,
}: {
  metrics: EvalMetrics
  profile: string | undefined
}): React.JSX.Element {
  const [metric, setMetric] = useState<QualityMetric>('ndcg')
  const bars = metricBars(metrics.rows, metric, profile)
  const name = METRIC_NAMES[metric](metrics.k)
  return (
    <figure className="eval-chart" aria-label={`${name} per list`}>
      <figcaption className="eval-chart__head">
        <h3>Per list</h3>
        <Select
          label="Metric"
          inline
          value={metric}
          options={QUALITY_METRICS.map((m) => ({ value: m, label: METRIC_NAMES[m](metrics.k) }))}
          onChange={setMetric}
        />
      </figcaption>
      <ul className="eval-bars">
        {bars.map((bar) => (
          <li key={bar.key} className="eval-bars__row">
            <span className="eval-bars__label" title={bar.label}>
              {bar.label}
            </span>
            <span className="eval-bars__track" aria-hidden="true">
              <span
                className={
                  bar.key.startsWith('merged')
                    ? 'eval-bars__bar eval-bars__bar--merged'
                    : 'eval-bars__bar'
                }
                style={{ width: `${bar.width}%` }}
              />
            </span>
            <span className="eval-bars__value">{formatMetric(bar.value)}</span>
          </li>
        ))}
      </ul>
    </figure>
  )
}

/** Queries × lists, each cell the query's nDCG@k in that list. */
function QueryHeatmap({
  metrics,
  profile,
  texts,
}: {
  metrics: EvalMetrics
  profile: string | undefined
  texts: ReadonlyMap<string, string>
}): React.JSX.Element {
  const map = useMemo(
    () =>
      heatmap(
        profile ? { perQuery: metrics.perQuery.filter((v) => v.profileId === profile) } : metrics,
        texts,
      ),
    [metrics, profile, texts],
  )
  return (
    <figure className="eval-chart eval-heatmap" aria-label={`nDCG@${metrics.k} per query`}>
      <figcaption className="eval-chart__head">
        <h3>nDCG@{metrics.k} per query</h3>
        <span className="eval-heatmap__legend muted" aria-hidden="true">
          0 <span className="eval-heatmap__scale" /> 1
        </span>
      </figcaption>
      <Table label={`nDCG@${metrics.k} per query and list`} scroll className="eval-heatmap__table">
        <thead>
          <tr>
            <th scope="col">Query</th>
            {map.lists.map((list) => (
              <th
                key={listKey(list)}
                scope="col"
                className="eval-heatmap__list"
                title={listLabel(list)}
              >
                {listLabel(list)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {map.rows.map((row) => (
            <tr key={row.key}>
              <td className="eval-heatmap__query" title={`${row.queryId}: ${row.label}`}>
                {row.label}
              </td>
              {row.cells.map((cell, index) =>
                cell === null ? (
                  <td key={index} className="eval-heatmap__cell muted">
                    <span aria-hidden="true">·</span>
                    <span className="visually-hidden">no value</span>
                  </td>
                ) : cell.failed ? (
                  <td key={index} className="eval-heatmap__cell eval-heatmap__cell--failed">
                    fail
                  </td>
                ) : cell.unjudged ? (
                  <td key={index} className="eval-heatmap__cell muted" title="No relevant judgment">
                    <span aria-hidden="true">–</span>
                    <span className="visually-hidden">no relevant judgment</span>
                  </td>
                ) : (
                  <td key={index} className="eval-heatmap__cell" style={heatStyle(cell.ndcg)}>
                    {cell.ndcg.toFixed(2)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </Table>
    </figure>
  )
}
