import { describe, expect, it } from 'vitest'
import { barPercent, formatMs, niceCeil, waterfallScale } from './waterfall'

describe('waterfall scale', () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect([niceCeil(0.3), niceCeil(7), niceCeil(130), niceCeil(200), niceCeil(4100)]).toEqual([
      1, 10, 200, 200, 5000,
    ])
  })

  it('ends at a round number that holds the slowest server', () => {
    const scale = waterfallScale([40, 870, 310])
    expect(scale.maxMs).toBe(1000)
    expect(scale.ticks[0]).toBe(0)
    expect(scale.ticks.at(-1)).toBe(1000)
  })

  it('keeps a minimum range so a few fast servers do not fill the width', () => {
    expect(waterfallScale([3, 5]).maxMs).toBe(100)
  })

  it('ticks evenly with three to five marks', () => {
    const { ticks } = waterfallScale([4321])
    const steps = new Set(ticks.slice(1).map((t, i) => t - ticks[i]!))
    expect(steps.size).toBe(1)
    expect(ticks.length).toBeLessThanOrEqual(5)
    expect(ticks.length).toBeGreaterThanOrEqual(3)
  })

  it('sizes bars proportionally, never past the end and never invisible', () => {
    const scale = waterfallScale([500])
    expect(barPercent(250, scale)).toBe(50)
    expect(barPercent(5000, scale)).toBe(100)
    expect(barPercent(0, scale)).toBeGreaterThan(0)
  })

  it('formats milliseconds and seconds', () => {
    expect([formatMs(12.4), formatMs(1240), formatMs(12_500)]).toEqual([
      '12 ms',
      '1.24 s',
      '12.5 s',
    ])
  })
})
