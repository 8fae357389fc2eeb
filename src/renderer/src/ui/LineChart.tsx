import { useId, useRef, useState } from 'react'
import 'uplot/dist/uPlot.min.css'
import { Button } from './Button'
import { cx } from './cx'
import { clock, legendValue, tableRows, type ChartSeries } from './line-chart'
import { Table } from './Table'
import { usePlot } from './use-plot'
import './LineChart.css'

export type { ChartSeries } from './line-chart'

export interface LineChartProps {
  /** What the chart shows, short (`search latency of kb`): names its data table. */
  name: string
  /** The picture's accessible name: what the lines show and their latest values. */
  label: string
  /** Epoch seconds, ascending. */
  x: readonly number[]
  /** The time span shown at least, in seconds, ending at the last x (so few points keep a sense of time). */
  minSpan?: number
  series: readonly ChartSeries[]
  height?: number
  /** Formats a y value for the axis and the legend, e.g. `12 ms`. */
  format: (value: number) => string
  className?: string
}

/**
 * A small time-series line chart on uPlot, themed from the design tokens (redrawn when the
 * colour scheme changes) and sized to its container. The canvas is an image to assistive
 * technology: `label` describes it, the legend beside it carries the values as text, and
 * "Data table" shows every point as a table (for screen readers, and for anyone who wants the
 * numbers).
 */
export function LineChart({
  name,
  label,
  x,
  series,
  height = 120,
  minSpan = 300,
  format,
  className,
}: LineChartProps): React.JSX.Element {
  const box = useRef<HTMLDivElement>(null)
  const cursor = usePlot(box, { x, series, height, minSpan, format })
  const [tableShown, setTableShown] = useState(false)
  const tableId = useId()
  const at = cursor === null ? undefined : x[cursor]
  return (
    <figure className={cx('ui-chart', className)}>
      <div ref={box} className="ui-chart__plot" role="img" aria-label={label} />
      <figcaption className="ui-chart__legend">
        {at !== undefined && (
          <span className="ui-chart__at">
            {new Date(at * 1000).toLocaleTimeString(undefined, { hour12: false })}
          </span>
        )}
        {series.map((s) => {
          const value = legendValue(s, cursor)
          return (
            <span key={s.label} className="ui-chart__item">
              <span
                className={cx('ui-chart__swatch', `ui-chart__swatch--${s.pattern ?? 'solid'}`)}
                style={{ borderColor: `var(${s.color})` }}
                aria-hidden="true"
              />
              {s.label} <strong>{value === null ? '–' : format(value)}</strong>
            </span>
          )
        })}
        <Button
          variant="ghost"
          className="ui-chart__table-toggle"
          aria-expanded={tableShown}
          aria-controls={tableId}
          onClick={() => setTableShown((shown) => !shown)}
        >
          Data table<span className="visually-hidden"> of {name}</span>
        </Button>
      </figcaption>
      <div id={tableId} hidden={!tableShown}>
        {tableShown && <DataTable name={name} x={x} series={series} format={format} />}
      </div>
    </figure>
  )
}

/** Every point with a value, newest first: the chart as text. */
function DataTable({
  name,
  x,
  series,
  format,
}: Pick<LineChartProps, 'name' | 'x' | 'series' | 'format'>): React.JSX.Element {
  const rows = tableRows(x, series)
  return (
    <Table label={name} scroll className="ui-chart__table">
      <thead>
        <tr>
          <th scope="col">Time</th>
          {series.map((s) => (
            <th key={s.label} scope="col" className="num">
              {s.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.at}>
            <th scope="row">{clock(row.at)}</th>
            {row.values.map((value, index) => (
              <td key={index} className="num">
                {value === null ? '–' : format(value)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  )
}
