import type uPlot from 'uplot'
import { lonePoints } from './chart-points'

/**
 * The line chart's drawing and text, worked out from its props: uPlot's options (themed by the
 * design tokens), the values the legend shows, and the rows of its data table.
 */

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

/** The narrowest the plot is drawn, in CSS pixels. */
export const MIN_PLOT_WIDTH = 120

/** What the plot draws, as the chart's props give it. */
export interface PlotSpec {
  /** Epoch seconds, ascending. */
  x: readonly number[]
  series: readonly ChartSeries[]
  height: number
  /** The time span shown at least, in seconds, ending at the last x. */
  minSpan: number
  format: (value: number) => string
}

/**
 * uPlot's options for the chart, `width` wide: colours and the font read through `token` (a
 * design token's value), the x range at least `minSpan` long, y from 0, and `onCursor` told the
 * index the cursor is at (null: off the plot).
 */
export function plotOptions(
  { x, series, height, minSpan, format }: PlotSpec,
  width: number,
  token: (name: string) => string,
  onCursor: (index: number | null) => void,
): uPlot.Options {
  const first = x[0] ?? 0
  const last = x[x.length - 1] ?? first
  const grid = { stroke: token('--border'), width: 1 }
  const axis = {
    stroke: token('--fg-muted'),
    grid,
    ticks: { stroke: token('--border'), width: 1, size: 4 },
    font: `10px ${token('--font') || 'sans-serif'}`,
  }
  return {
    width: Math.max(MIN_PLOT_WIDTH, width),
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
    hooks: { setCursor: [(u) => onCursor(u.cursor.idx ?? null)] },
  }
}

/** uPlot's data: the times, then each series' values. */
export function plotData(x: readonly number[], series: readonly ChartSeries[]): uPlot.AlignedData {
  return [x as number[], ...series.map((s) => s.values as (number | null)[])] as uPlot.AlignedData
}

/** A series' value in the legend: at the cursor, or the latest one while the cursor is off. */
export function legendValue(series: ChartSeries, cursor: number | null): number | null {
  return cursor === null ? lastValue(series.values) : (series.values[cursor] ?? null)
}

function lastValue(values: readonly (number | null)[]): number | null {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] != null) return values[i]!
  return null
}

/** Every point with a value, newest first: the chart as text. */
export function tableRows(
  x: readonly number[],
  series: readonly ChartSeries[],
): { at: number; values: (number | null)[] }[] {
  return x
    .map((at, index) => ({ at, values: series.map((s) => s.values[index] ?? null) }))
    .filter((row) => row.values.some((value) => value !== null))
    .reverse()
}

/** `14:05`, 24-hour like every time in the console. */
export const clock = (seconds: number): string =>
  new Date(seconds * 1000).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  })
