import { describe, expect, it } from 'vitest'
import { backoffDelay } from './backoff'

const options = { initialMs: 100, maxMs: 1000, factor: 2, jitter: 0.2 }

describe('backoffDelay', () => {
  it('grows exponentially and stops at the maximum', () => {
    const middle = () => 0.5
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, options, middle))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ])
  })

  it('spreads each delay by the jitter and never beyond the maximum', () => {
    expect(backoffDelay(1, options, () => 0)).toBe(80)
    expect(backoffDelay(1, options, () => 1)).toBe(120)
    expect(backoffDelay(10, options, () => 1)).toBe(1000)
  })
})
