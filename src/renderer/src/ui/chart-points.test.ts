import { describe, expect, it } from 'vitest'
import { lonePoints } from './chart-points'

describe('lonePoints', () => {
  it('finds the values a line cannot draw: between gaps and at the ends', () => {
    const slices = Array.from({ length: 120 }, () => null as number | null)
    slices[57] = 54
    expect(lonePoints(slices)).toEqual([57])
    expect(lonePoints([3, null, 4, 5, null, null, 6])).toEqual([0, 6])
    expect(lonePoints([1, 2, 3])).toEqual([])
    expect(lonePoints([])).toEqual([])
  })
})
