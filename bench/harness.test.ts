import { describe, expect, it } from 'vitest'
import { median, quantile, summarize, verdict, type BenchResult } from './harness'

const result = (passes: (boolean | undefined)[], checks: (boolean | undefined)[] = []) =>
  ({
    name: 'b',
    description: 'd',
    metrics: [],
    comparisons: passes.map((pass) => ({ name: 'c', description: 'c', ratio: 1, pass })),
    checks: checks.map((pass) => ({
      name: 'k',
      description: 'k',
      value: 0,
      unit: 'count',
      target: '= 0',
      pass,
    })),
  }) satisfies BenchResult

describe('median', () => {
  it('takes the middle of an odd count regardless of order', () => {
    expect(median([9, 1, 5])).toBe(5)
  })

  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5)
  })

  it('is NaN for no samples', () => {
    expect(median([])).toBeNaN()
  })
})

describe('quantile', () => {
  it('interpolates p95 between the closest ranks', () => {
    const samples = Array.from({ length: 21 }, (_, i) => i * 10) // 0 … 200
    expect(quantile(samples, 0.95)).toBe(190)
    expect(quantile([0, 100], 0.95)).toBeCloseTo(95)
  })

  it('gives the extremes at 0 and 1', () => {
    expect(quantile([3, 7, 5], 0)).toBe(3)
    expect(quantile([3, 7, 5], 1)).toBe(7)
  })

  it('leaves the samples unsorted', () => {
    const samples = [3, 1, 2]
    quantile(samples, 0.5)
    expect(samples).toEqual([3, 1, 2])
  })
})

describe('summarize', () => {
  it('reports median, p95 and the sample count', () => {
    expect(summarize('call', 'ms', [1, 2, 3, 4, 5])).toEqual({
      name: 'call',
      unit: 'ms',
      median: 3,
      p95: 4.8,
      samples: 5,
    })
  })
})

describe('verdict', () => {
  it('is met when every judged comparison and check passed', () => {
    expect(verdict(result([true, undefined], [true]))).toBe('met')
  })

  it('is missed when a comparison missed its target', () => {
    expect(verdict(result([true, false]))).toBe('missed')
  })

  it('is missed when a check failed even though every ratio was met', () => {
    expect(verdict(result([true], [false]))).toBe('missed')
  })

  it('is unjudged when nothing was judged', () => {
    expect(verdict(result([undefined], [undefined]))).toBe('unjudged')
  })
})
