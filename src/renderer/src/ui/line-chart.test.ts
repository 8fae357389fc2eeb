import { describe, expect, it } from 'vitest'
import type uPlot from 'uplot'
import { clock, legendValue, plotData, plotOptions, tableRows, type PlotSpec } from './line-chart'

const spec = (over: Partial<PlotSpec> = {}): PlotSpec => ({
  x: [1000, 1060, 1120],
  series: [
    { label: 'p50', color: '--accent', values: [10, null, 30] },
    { label: 'p95', color: '--warn', values: [20, 25, null], pattern: 'dashed' },
  ],
  height: 120,
  minSpan: 300,
  format: (v) => `${v} ms`,
  ...over,
})
const tokens: Record<string, string> = { '--accent': '#05f', '--warn': '#f80', '--font': '' }
const token = (name: string): string => tokens[name] ?? '#888'
const u = {} as uPlot
const noCursor = (): void => undefined

/** A scale's range as uPlot asks for it, with the data's min and max. */
function range(options: uPlot.Options, scale: 'x' | 'y', min: number, max: number) {
  const r = options.scales![scale]!.range as uPlot.Range.Function
  return r(u, min, max, scale)
}

describe('plotOptions', () => {
  it('shows at least minSpan seconds ending at the last point, and the whole data past it', () => {
    expect(range(plotOptions(spec(), 600, token, noCursor), 'x', 1000, 1120)).toEqual([820, 1120])
    expect(range(plotOptions(spec({ x: [500] }), 600, token, noCursor), 'x', 500, 500)).toEqual([
      200, 500,
    ])
    const long = spec({ x: [0, 1000] })
    expect(range(plotOptions(long, 600, token, noCursor), 'x', 0, 1000)).toEqual([0, 1000])
  })

  it('starts y at 0 with room above the highest value, and spans 0–1 with nothing above 0', () => {
    const options = plotOptions(spec(), 600, token, noCursor)
    expect(range(options, 'y', 10, 30)).toEqual([0, 30 * 1.1])
    expect(range(options, 'y', 0, 0)).toEqual([0, 1])
  })

  it('colours each line by its token and draws its pattern; solid has no dash', () => {
    const options = plotOptions(
      spec({
        series: [
          { label: 'a', color: '--accent', values: [] },
          { label: 'b', color: '--warn', values: [], pattern: 'dotted' },
          { label: 'c', color: '--missing', values: [], pattern: 'solid' },
        ],
      }),
      600,
      token,
      noCursor,
    )
    const [, a, b, c] = options.series
    expect(a).toMatchObject({ label: 'a', stroke: '#05f' })
    expect(a).not.toHaveProperty('dash')
    expect(b).toMatchObject({ stroke: '#f80', dash: [1.5, 2.5] })
    expect(c).toMatchObject({ stroke: '#888' })
    expect(c).not.toHaveProperty('dash')
  })

  it('keeps the plot at least 120 px wide, writes y ticks with format and falls back to a font', () => {
    const options = plotOptions(spec(), 40, token, noCursor)
    expect(options.width).toBe(120)
    expect(plotOptions(spec(), 640, token, noCursor).width).toBe(640)
    const y = options.axes![1]!
    const values = y.values as (u: uPlot, ticks: number[]) => string[]
    expect(values(u, [0, 12.5])).toEqual(['0 ms', '12.5 ms'])
    expect(y.font).toBe('10px sans-serif')
  })

  it('tells where the cursor is, and when it leaves', () => {
    const seen: (number | null)[] = []
    const options = plotOptions(spec(), 600, token, (index) => seen.push(index))
    const [setCursor] = options.hooks!.setCursor!
    setCursor!({ cursor: { idx: 2 } } as uPlot)
    setCursor!({ cursor: { idx: null } } as uPlot)
    expect(seen).toEqual([2, null])
  })
})

describe('the chart as text', () => {
  const { series } = spec()

  it('puts the times first in the plot data, then each series', () => {
    expect(plotData([1, 2, 3], series)).toEqual([
      [1, 2, 3],
      [10, null, 30],
      [20, 25, null],
    ])
  })

  it('shows the latest value in the legend, or the one at the cursor (none in a gap)', () => {
    expect(series.map((s) => legendValue(s, null))).toEqual([30, 25])
    expect(series.map((s) => legendValue(s, 1))).toEqual([null, 25])
    expect(legendValue({ label: 'x', color: '--accent', values: [null, null] }, null)).toBeNull()
    expect(legendValue(series[0]!, 7)).toBeNull()
  })

  it('lists every time with a value, newest first, and leaves out times with none', () => {
    const x = [1000, 1060, 1120, 1180]
    const rows = tableRows(x, [
      { label: 'a', color: '--accent', values: [1, null, 3, null] },
      { label: 'b', color: '--warn', values: [null, null, 4] },
    ])
    expect(rows).toEqual([
      { at: 1120, values: [3, 4] },
      { at: 1000, values: [1, null] },
    ])
  })

  it('writes times as 24-hour hours and minutes, in local time', () => {
    const pad = (n: number): string => String(n).padStart(2, '0')
    for (const seconds of [0, 13 * 3600 + 5 * 60, 23 * 3600 + 59 * 60]) {
      const local = new Date(seconds * 1000)
      expect(clock(seconds)).toBe(`${pad(local.getHours())}:${pad(local.getMinutes())}`)
    }
  })
})
