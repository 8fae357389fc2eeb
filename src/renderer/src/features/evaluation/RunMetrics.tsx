import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import {
  LOW_COVERAGE,
  QUALITY_METRICS,
  type EvalMetrics,
  type EvalRunSummary,
  type QualityMetric,
} from '#shared/model/evaluation'
import { useEvaluationPoolRunsSelected, useEvaluationTabSelected } from '../../state/store'
import { Banner, Button, cx, Popover, Select, Spinner, Table } from '../../ui'
import {
  cellReasons,
  formatMetric,
  formatShare,
  HEAT_METRICS,
  heatCellShown,
  heatMetricOptions,
  heatmap,
  heatStyle,
  type HeatMetric,
  listKey,
  listLabel,
  METRIC_COLUMNS,
  metricBars,
  sortMetricRows,
  thinLists,
  type HeatCell,
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
  const reasons = useMemo(
    () => (stored.data ? cellReasons(stored.data) : new Map<string, string>()),
    [stored.data],
  )
  const [profile, setProfile] = useState('')
  const selectTab = useEvaluationTabSelected()
  const selectPoolRuns = useEvaluationPoolRunsSelected()
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
      <CoverageNote
        metrics={metrics.data}
        profile={profile || undefined}
        onJudge={() => {
          selectPoolRuns([run.id])
          selectTab('pool')
        }}
      />
      <MetricTable
        metrics={metrics.data}
        profile={profile || undefined}
        imported={run.imported === true}
      />
      <div className="eval-charts">
        <ListBars metrics={metrics.data} profile={profile || undefined} />
        <QueryHeatmap
          metrics={metrics.data}
          profile={profile || undefined}
          texts={texts}
          reasons={reasons}
        />
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

/**
 * Says which lists' metrics rest on few judgments (judged@k below {@link LOW_COVERAGE}), why
 * that matters, and offers to judge the run's pool.
 */
function CoverageNote({
  metrics,
  profile,
  onJudge,
}: {
  metrics: EvalMetrics
  profile: string | undefined
  onJudge: () => void
}): React.JSX.Element | null {
  const thin = thinLists(metrics.rows, profile)
  if (thin.length === 0) return null
  const lists = thin
    .map((row) => `${listLabel(row.list)} (${formatShare(row.values.judgedAtK!)})`)
    .join(', ')
  return (
    <Banner
      tone="warn"
      title={`These figures rest on few judgments: judged@${metrics.k} is below ${formatShare(LOW_COVERAGE)}`}
      actions={
        <Button icon="evaluation" onClick={onJudge}>
          Judge the pool
        </Button>
      }
    >
      {lists}. Unjudged hits count as misses, so these lists may be better than they score: judge
      what they returned, then run the set again.
    </Banner>
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
              {columns.map((column) => {
                const thin =
                  column.id === 'judgedAtK' &&
                  row.values.judgedAtK !== null &&
                  row.values.judgedAtK < LOW_COVERAGE
                return (
                  <td
                    key={column.id}
                    className={thin ? 'num eval-cell--thin' : 'num'}
                    title={thin ? 'Few judgments: these metrics say little' : undefined}
                  >
                    {column.text(row.values)}
                  </td>
                )
              })}
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

/** Queries × lists, each cell the query's value of a chosen metric in that list. */
function QueryHeatmap({
  metrics,
  profile,
  texts,
  reasons,
}: {
  metrics: EvalMetrics
  profile: string | undefined
  texts: ReadonlyMap<string, string>
  reasons: ReadonlyMap<string, string>
}): React.JSX.Element {
  const [metric, setMetric] = useState<HeatMetric>('ndcg')
  const map = useMemo(
    () =>
      heatmap(
        profile ? { perQuery: metrics.perQuery.filter((v) => v.profileId === profile) } : metrics,
        texts,
        metric,
        reasons,
      ),
    [metrics, profile, texts, metric, reasons],
  )
  const name = HEAT_METRICS[metric].label(metrics.k)
  return (
    <figure className="eval-chart eval-heatmap" aria-label={`${name} per query`}>
      <figcaption className="eval-chart__head">
        <h3>Per query</h3>
        <Select
          label="Metric"
          inline
          value={metric}
          options={heatMetricOptions(metrics.k)}
          onChange={setMetric}
        />
        <span className="eval-heatmap__legend muted">
          <span className="eval-heatmap__legend" aria-hidden="true">
            0 <span className="eval-heatmap__scale" /> 1
          </span>
          <span>· fail: the call failed · hidden: not asked as this profile (not counted)</span>
        </span>
      </figcaption>
      <Table label={`${name} per query and list`} scroll className="eval-heatmap__table">
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
                {wordBreaks(listLabel(list))}
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
              {row.cells.map((cell, index) => (
                <HeatmapCell
                  key={index}
                  cell={cell}
                  list={listLabel(map.lists[index]!)}
                  query={row.label}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </figure>
  )
}

/** One cell of the heatmap: its value, tinted, or in words why there is none. */
function HeatmapCell({
  cell,
  list,
  query,
}: {
  cell: HeatCell | null
  list: string
  query: string
}): React.JSX.Element {
  const shown = heatCellShown(cell)
  switch (shown.kind) {
    case 'none':
      return (
        <td className="eval-heatmap__cell muted">
          <span aria-hidden="true">·</span>
          <span className="visually-hidden">no value</span>
        </td>
      )
    case 'why':
      return (
        <td
          className={cx(
            'eval-heatmap__cell',
            shown.cell.failed ? 'eval-heatmap__cell--failed' : 'eval-heatmap__cell--hidden',
          )}
          title={shown.cell.reason}
        >
          <WhyCell cell={shown.cell} list={list} query={query} />
        </td>
      )
    case 'blank':
      return (
        <td className="eval-heatmap__cell muted" title={shown.title}>
          <span aria-hidden="true">–</span>
          <span className="visually-hidden">{shown.words}</span>
        </td>
      )
    case 'value':
      return (
        <td className="eval-heatmap__cell" style={heatStyle(shown.value)}>
          {shown.value.toFixed(2)}
        </td>
      )
  }
}

/**
 * A `fail` or `hidden` cell: why, on hover (the cell's title) and in a small panel a click or
 * Enter opens. A server hidden from the profile was not asked and does not count against it.
 */
function WhyCell({
  cell,
  list,
  query,
}: {
  cell: HeatCell
  list: string
  query: string
}): React.JSX.Element {
  const word = cell.failed ? 'fail' : 'hidden'
  return (
    <Popover
      trigger={
        <>
          <span aria-hidden="true">{word}</span>
          <span className="visually-hidden">{`${word}: ${list} for “${query}”, why`}</span>
        </>
      }
      triggerClassName="eval-heatmap__why"
      label={`Why ${list} shows ${word} for “${query}”`}
      className="eval-heatmap__reason"
    >
      <p>
        <strong>{list}</strong> for “{query}”:{' '}
        {cell.hidden
          ? 'not asked: the profile may not see this server. Not counted as its failure.'
          : 'the call failed.'}
      </p>
      <p>{cell.reason ?? 'The run does not say why.'}</p>
    </Popover>
  )
}

/** A list name that may wrap only between words: `knowledge⁠Search`, `merged · RRF`. */
function wordBreaks(label: string): React.ReactNode[] {
  return label
    .split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[-_./])/)
    .flatMap((part, index) => (index === 0 ? [part] : [<wbr key={index} />, part]))
}
