import { useQuery } from '@tanstack/react-query'
import {
  QUALITY_METRICS,
  type EvalRunSummary,
  type QualityMetric,
  type QueryChange,
  type RunComparison,
} from '#shared/model/evaluation'
import { useEvaluationCompare, useEvaluationCompareChanged } from '../../state/store'
import { Banner, EmptyRow, EmptyState, Select, Spinner, Table } from '../../ui'
import { GRADE_LABELS } from './grades'
import {
  ALPHA,
  comparisonSummary,
  deltaRows,
  deltaVerdict,
  formatDelta,
  formatP,
} from './compare-view'
import { formatMetric, listLabel } from './metric-view'
import { evalQueries } from './queries'
import { runTime } from './RunHistory'

const METRIC_LABELS: Record<QualityMetric, string> = {
  recall: 'Recall',
  precision: 'Precision',
  mrr: 'MRR',
  ndcg: 'nDCG',
  hitRate: 'Hit rate',
}

/** Two finished runs of a set side by side: baseline A, candidate B. */
export function CompareRuns({ runs }: { runs: readonly EvalRunSummary[] }): React.JSX.Element {
  const pair = useEvaluationCompare()
  const setPair = useEvaluationCompareChanged()
  const finished = runs.filter((run) => run.status !== 'running')
  // By default the newest run against the one before it.
  const runB = finished.find((run) => run.id === pair.candidate) ?? finished[0]
  const runA = finished.find((run) => run.id === pair.base) ?? finished.find((run) => run !== runB)
  if (finished.length < 2 || !runA || !runB) {
    return (
      <EmptyState icon="diff" title="Two runs are needed to compare">
        Run the set twice (say, before and after a change to a server), then compare them here.
      </EmptyState>
    )
  }
  const options = finished.map((run) => ({
    value: run.id,
    label: `${runTime(run)} · ${run.status} · k ${run.k}`,
  }))
  return (
    <div className="eval-compare">
      <div className="eval-compare__pick">
        <Select
          label="Baseline (A)"
          inline
          value={runA.id}
          options={options}
          onChange={(base) => setPair({ base, candidate: runB.id })}
        />
        <Select
          label="Candidate (B)"
          inline
          value={runB.id}
          options={options}
          onChange={(candidate) => setPair({ base: runA.id, candidate })}
        />
      </div>
      {runA.id === runB.id ? (
        <p className="muted">Choose two different runs.</p>
      ) : (
        <Comparison runA={runA} runB={runB} />
      )}
    </div>
  )
}

function Comparison({
  runA,
  runB,
}: {
  runA: EvalRunSummary
  runB: EvalRunSummary
}): React.JSX.Element {
  const k = Math.min(runA.k, runB.k)
  const comparison = useQuery(evalQueries.compare(runA.id, runB.id, k))
  if (comparison.isPending) return <Spinner label="Comparing the runs…" />
  if (comparison.isError) {
    return (
      <Banner tone="bad" title="Cannot compare these runs">
        {comparison.error.message}
      </Banner>
    )
  }
  const data = comparison.data
  return (
    <section className="eval-comparison" aria-label="Comparison">
      <p role="status" className="eval-comparison__summary">
        {comparisonSummary(data)}
      </p>
      <DeltaTable comparison={data} />
      <div className="eval-charts">
        <ChangeTable label="Better in B" changes={data.better} k={data.k} />
        <ChangeTable label="Worse in B" changes={data.worse} k={data.k} />
      </div>
      <LostDocuments comparison={data} />
    </section>
  )
}

function DeltaTable({ comparison }: { comparison: RunComparison }): React.JSX.Element {
  const rows = deltaRows(comparison.deltas)
  return (
    <Table label="Metric changes" className="eval-delta-table">
      <thead>
        <tr>
          <th scope="col">List</th>
          {QUALITY_METRICS.map((metric) => (
            <th
              key={metric}
              scope="col"
              className="num"
              title={`${METRIC_LABELS[metric]}@${comparison.k}: B − A, with the p-value of a paired randomization test (significant below ${ALPHA})`}
            >
              {METRIC_LABELS[metric]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && <EmptyRow colSpan={6}>The runs share no query.</EmptyRow>}
        {rows.map((row) => (
          <tr key={row.key} aria-label={listLabel(row.list)}>
            <th scope="row" className="eval-list-name">
              {listLabel(row.list)}
            </th>
            {QUALITY_METRICS.map((metric) => {
              const delta = row.deltas[metric]
              if (!delta)
                return (
                  <td key={metric} className="num muted">
                    –
                  </td>
                )
              const verdict = deltaVerdict(delta)
              return (
                <td
                  key={metric}
                  className={`num eval-delta eval-delta--${verdict.tone}`}
                  title={`${formatMetric(delta.a)} → ${formatMetric(delta.b)} over ${delta.pairs} queries: ${verdict.word}`}
                >
                  <span className="eval-delta__value">{formatDelta(delta.delta)}</span>
                  <span className="eval-delta__p">
                    {formatP(delta.pValue)}
                    {verdict.tone !== 'neutral' && ` · ${verdict.word}`}
                  </span>
                </td>
              )
            })}
          </tr>
        ))}
      </tbody>
    </Table>
  )
}

function ChangeTable({
  label,
  changes,
  k,
}: {
  label: string
  changes: readonly QueryChange[]
  k: number
}): React.JSX.Element {
  return (
    <section className="eval-changes" aria-label={label}>
      <h3>
        {label} <span className="muted">(nDCG@{k})</span>
      </h3>
      <Table label={label} scroll className="eval-fixed">
        <thead>
          <tr>
            <th scope="col">Query</th>
            <th scope="col" className="eval-col--list">
              List
            </th>
            <th scope="col" className="num eval-col--ab">
              A → B
            </th>
            <th scope="col" className="num eval-col--delta">
              Δ
            </th>
          </tr>
        </thead>
        <tbody>
          {changes.length === 0 && <EmptyRow colSpan={4}>None.</EmptyRow>}
          {changes.map((change) => (
            <tr key={`${change.queryId}:${change.profileId}:${listLabel(change.list)}`}>
              <td className="eval-cell--text" title={`${change.queryId} as ${change.profileId}`}>
                {change.query}
              </td>
              <td className="eval-cell--text">{listLabel(change.list)}</td>
              <td className="num">
                {change.a.toFixed(2)} → {change.b.toFixed(2)}
              </td>
              <td className="num">{formatDelta(change.delta)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  )
}

function LostDocuments({ comparison }: { comparison: RunComparison }): React.JSX.Element {
  return (
    <section className="eval-changes" aria-label="Relevant documents lost">
      <h3>
        Relevant documents lost{' '}
        <span className="muted">(in A’s top {comparison.k}, not in B’s)</span>
      </h3>
      <Table label="Relevant documents lost" scroll className="eval-fixed">
        <thead>
          <tr>
            <th scope="col">Query</th>
            <th scope="col" className="eval-col--list">
              List
            </th>
            <th scope="col">Document</th>
            <th scope="col" className="eval-col--grade">
              Grade
            </th>
            <th scope="col" className="num eval-col--rank">
              Rank in A
            </th>
          </tr>
        </thead>
        <tbody>
          {comparison.lostDocuments.length === 0 && (
            <EmptyRow colSpan={5}>B found every relevant document A found.</EmptyRow>
          )}
          {comparison.lostDocuments.map((lost) => (
            <tr key={`${lost.queryId}:${lost.profileId}:${listLabel(lost.list)}:${lost.docKey}`}>
              <td className="eval-cell--text" title={`${lost.queryId} as ${lost.profileId}`}>
                {lost.query}
              </td>
              <td className="eval-cell--text">{listLabel(lost.list)}</td>
              <td className="eval-cell--text" title={lost.docKey}>
                {lost.title || lost.docKey}
              </td>
              <td>{GRADE_LABELS[lost.grade]}</td>
              <td className="num">{lost.rankInA}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  )
}
