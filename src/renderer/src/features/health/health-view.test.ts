import { describe, expect, it } from 'vitest'
import type { OperationHealth } from '#shared/model/server'
import {
  describeWindow,
  errorShares,
  formatPercent,
  formatUptime,
  headroom,
  headroomCell,
  latencyColumns,
  parsePort,
  sortOperations,
  timeAxis,
} from './health-view'

const bucket = (at: number, p50?: number) => ({
  at,
  calls: 1,
  errors: {},
  ...(p50 === undefined ? {} : { latency: { p50, p95: p50 * 2, p99: p50 * 3 } }),
})

describe('latencyColumns', () => {
  it('puts a gap where a slice had no successful call, so lines do not bridge it', () => {
    const series = [bucket(10_000, 5), bucket(30_000, 7)]
    const columns = latencyColumns(series, timeAxis([series], 10_000))
    expect(columns.x).toEqual([10, 20, 30])
    expect(columns.p50).toEqual([5, null, 7])
    expect(columns.p99).toEqual([15, null, 21])
  })

  it('keeps a slice where every call failed as a gap', () => {
    expect(latencyColumns([bucket(0)], timeAxis([[bucket(0)]], 1000)).p95).toEqual([null])
  })

  it('keeps only the newest slices past the cap', () => {
    const series = [0, 1000, 2000, 3000].map((at) => bucket(at, at))
    expect(latencyColumns(series, timeAxis([series], 1000, 2)).x).toEqual([2, 3])
  })

  it('draws every chart on one time axis, from the earliest slice of any to the latest', () => {
    const early = [bucket(10_000, 5)]
    const late = [bucket(30_000, 6), bucket(40_000, 7)]
    const axis = timeAxis([early, late, []], 10_000)
    const a = latencyColumns(early, axis)
    const b = latencyColumns(late, axis)
    expect(a.x).toEqual([10, 20, 30, 40])
    expect(b.x).toEqual(a.x)
    expect(a.p50).toEqual([5, null, null, null])
    expect(b.p50).toEqual([null, null, 6, 7])
  })
})

describe('describeWindow', () => {
  it('names the window a rate or quantile covers', () => {
    expect(describeWindow(5 * 60_000)).toBe('5 min')
    expect(describeWindow(90_000)).toBe('90 s')
    expect(describeWindow(2 * 60 * 60_000)).toBe('2 h')
  })
})

describe('errorShares', () => {
  it('lists codes by count with their share of the calls, leaving cancellations out', () => {
    expect(
      errorShares({ calls: 10, errors: { timeout: 1, unauthorized: 3, cancelled: 4 } }),
    ).toEqual([
      { code: 'unauthorized', count: 3, share: 0.3, refusal: true },
      { code: 'timeout', count: 1, share: 0.1, refusal: false },
    ])
  })
})

describe('headroom', () => {
  it('is the share of the limit left', () => {
    expect(headroom({ limit: 60, remaining: 15, at: 0 })).toEqual({
      remaining: 15,
      limit: 60,
      ratio: 0.25,
    })
  })

  it('is unknown when the server sent no limit', () => {
    expect(headroom({ remaining: 3, at: 0 })).toBeNull()
  })
})

describe('headroomCell', () => {
  it('shows the share left, as short for a large limit as for a small one, the counts as its title', () => {
    expect(headroomCell({ limit: 60, remaining: 15, at: 0 })).toEqual({
      text: '25 %',
      title: '15 of 60 left',
    })
    expect(headroomCell({ limit: 10_000, remaining: 9_991, at: 0 })).toEqual({
      text: '> 99.9 %',
      title: '9,991 of 10,000 left',
    })
  })

  it('is a dash when the server sent no limit', () => {
    expect(headroomCell({ remaining: 3, at: 0 })).toEqual({ text: '–' })
    expect(headroomCell(undefined)).toEqual({ text: '–' })
  })
})

describe('formatUptime', () => {
  it('shows a dash while nothing is known yet', () => {
    expect(formatUptime(undefined)).toBe('—')
    expect(formatUptime(1)).toBe('100 %')
  })
})

describe('formatPercent', () => {
  it('keeps one decimal and never rounds a failure away to zero', () => {
    expect(formatPercent(0.329)).toBe('32.9 %')
    expect(formatPercent(1)).toBe('100 %')
    expect(formatPercent(0.0004)).toBe('< 0.1 %')
    expect(formatPercent(0.9996)).toBe('> 99.9 %')
  })
})

describe('sortOperations', () => {
  it('puts the busiest first and connect last, skipping operations never called', () => {
    const op = (operation: string, calls: number) => ({ operation, calls }) as OperationHealth
    expect(
      sortOperations([op('connect', 9), op('ping', 2), op('search', 40), op('verify', 0)]).map(
        (o) => o.operation,
      ),
    ).toEqual(['search', 'ping', 'connect'])
  })
})

describe('parsePort', () => {
  it('takes whole numbers 0–65535 as typed, spaces around them allowed', () => {
    expect(parsePort('9470')).toBe(9470)
    expect(parsePort(' 0 ')).toBe(0)
    expect(parsePort('65535')).toBe(65_535)
  })

  it('refuses anything else', () => {
    for (const text of ['', '65536', '-1', '94.7', '9e3', '0x10', 'abc', '123456']) {
      expect(parsePort(text)).toBeUndefined()
    }
  })
})
