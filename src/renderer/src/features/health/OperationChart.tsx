import { useMemo } from 'react'
import type { OperationHealth } from '#shared/model/server'
import { LineChart, type ChartSeries } from '../../ui'
import { formatMs } from '../servers/server-view'
import { latencyColumns, type TimeAxis } from './health-view'

export interface OperationChartProps {
  server: string
  operation: OperationHealth
  /** Shared by every chart of the panel, so they line up in time. */
  axis: TimeAxis | null
}

/** p50 / p95 / p99 latency of one operation of one server over the kept time slices. */
export function OperationChart({
  server,
  operation,
  axis,
}: OperationChartProps): React.JSX.Element {
  const columns = useMemo(() => latencyColumns(operation.series, axis), [operation.series, axis])
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: 'p50', color: '--accent', values: columns.p50 },
      { label: 'p95', color: '--warn', values: columns.p95, pattern: 'dashed' },
      { label: 'p99', color: '--bad', values: columns.p99, pattern: 'dotted' },
    ],
    [columns],
  )
  const { p50, p95, p99 } = operation.latency
  const name = `${operation.operation} latency of ${server}`
  const label =
    operation.latency.count > 0
      ? `${name}: now p50 ${formatMs(p50)}, p95 ${formatMs(p95)}, p99 ${formatMs(p99)}`
      : `${name}: no successful calls lately`
  return (
    <div className="health-chart">
      <div className="health-chart__head">
        <h4>{operation.operation}</h4>
        <span className="muted">
          {operation.calls} {operation.calls === 1 ? 'call' : 'calls'} since start
        </span>
      </div>
      {columns.p50.every((v) => v === null) ? (
        <p className="health-chart__empty muted">
          {operation.series.length === 0
            ? 'No calls in the last 30 min.'
            : 'No successful calls in the last 30 min.'}
        </p>
      ) : (
        <LineChart
          name={name}
          label={label}
          x={columns.x}
          series={series}
          format={formatMs}
          height={110}
        />
      )}
    </div>
  )
}
