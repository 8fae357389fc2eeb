import { useEffect, useId, useRef, useState } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { Button } from './Button'
import { lonePoints } from './chart-points'
import { cx } from './cx'
import { Table } from './Table'
import './LineChart.css'

/**
 * One line of a chart; `color` names a design token (`--accent`, `--warn`, …). Lines differ by
 * their pattern too, never by colour alone (WCAG 1.4.1).
 */
export interface ChartSeries {
  label: string
  color: string
  /** One value per x; null leaves a gap. */
  values: readonly (number | null)[]
  /** Default solid. */
  pattern?: 'solid' | 'dashed' | 'dotted'
}

const DASH: Record<NonNullable<ChartSeries['pattern']>, number[] | undefined> = {
  solid: undefined,
  dashed: [6, 3],
  dotted: [1.5, 2.5],
}

/** uPlot's `dash` for a pattern: absent for a solid line. */
function dashOf(pattern: ChartSeries['pattern']): { dash?: number[] } {
  const dash = pattern && DASH[pattern]
  return dash ? { dash } : {}
}

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

const token = (name: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888'

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
  const [cursor, setCursor] = useState<number | null>(null)
  const [scheme, setScheme] = useState(0)
  const [tableShown, setTableShown] = useState(false)
  const tableId = useId()

  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)')
    const changed = (): void => setScheme((n) => n + 1)
    media.addEventListener('change', changed)
    return () => media.removeEventListener('change', changed)
  }, [])

  useEffect(() => {
    const element = box.current
    if (!element) return
    const first = x[0] ?? 0
    const last = x[x.length - 1] ?? first
    const grid = { stroke: token('--border'), width: 1 }
    const axis = {
      stroke: token('--fg-muted'),
      grid,
      ticks: { stroke: token('--border'), width: 1, size: 4 },
      font: `10px ${token('--font') || 'sans-serif'}`,
    }
    const options: uPlot.Options = {
      width: Math.max(120, element.clientWidth),
      height,
      legend: { show: false },
      cursor: { points: { size: 6 }, drag: { x: false, y: false } },
      scales: {
        // Explicit: uPlot's own range for a single point spans years.
        x: { time: true, range: () => [Math.min(first, last - minSpan), last] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        { ...axis, size: 22, values: (_u, ticks) => ticks.map(clock) },
        { ...axis, size: 52, values: (_u, ticks) => ticks.map((v) => format(v)) },
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: token(s.color),
          width: 1.5,
          spanGaps: false,
          points: {
            // Every point while there are few; else only those no line reaches (a slice with
            // calls between quiet ones), which would otherwise draw nothing.
            show: (u: uPlot) => u.data[0].length < 24,
            filter: (u: uPlot, index: number, show: boolean) => {
              if (show) return null
              const lone = lonePoints(u.data[index]!)
              return lone.length > 0 ? lone : null
            },
            size: 4,
          },
          ...dashOf(s.pattern),
        })),
      ],
      hooks: { setCursor: [(u) => setCursor(u.cursor.idx ?? null)] },
    }
    const data = [x as number[], ...series.map((s) => s.values as (number | null)[])]
    const plot = new uPlot(options, data as uPlot.AlignedData, element)
    const observer = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(120, element.clientWidth), height })
    })
    observer.observe(element)
    return () => {
      observer.disconnect()
      plot.destroy()
    }
  }, [x, series, height, minSpan, format, scheme])

  const index = cursor ?? x.length - 1
  return (
    <figure className={cx('ui-chart', className)}>
      <div ref={box} className="ui-chart__plot" role="img" aria-label={label} />
      <figcaption className="ui-chart__legend">
        {cursor !== null && x[index] !== undefined && (
          <span className="ui-chart__at">
            {new Date(x[index] * 1000).toLocaleTimeString(undefined, { hour12: false })}
          </span>
        )}
        {series.map((s) => {
          const value = cursor === null ? lastValue(s.values) : s.values[index]
          return (
            <span key={s.label} className="ui-chart__item">
              <span
                className={cx('ui-chart__swatch', `ui-chart__swatch--${s.pattern ?? 'solid'}`)}
                style={{ borderColor: `var(${s.color})` }}
                aria-hidden="true"
              />
              {s.label}{' '}
              <strong>{value === null || value === undefined ? '–' : format(value)}</strong>
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
  const rows = x
    .map((at, index) => ({ at, values: series.map((s) => s.values[index] ?? null) }))
    .filter((row) => row.values.some((value) => value !== null))
    .reverse()
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

function lastValue(values: readonly (number | null)[]): number | null {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] != null) return values[i]!
  return null
}

/** `14:05`, 24-hour like every time in the console. */
const clock = (seconds: number): string =>
  new Date(seconds * 1000).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  })
