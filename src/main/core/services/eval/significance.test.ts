import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pairedRandomizationTest } from './significance'

describe('paired randomization test', () => {
  it('gives p = 2/8 when three pairs all improve by the same amount', () => {
    // Differences 1, 1, 1: of the 2^3 = 8 sign assignments only +++ and −−− reach |sum| ≥ 3.
    expect(pairedRandomizationTest([0, 0, 0], [1, 1, 1])).toBe(0.25)
  })

  it('gives p = 6/16 for differences 0.5, 0.2, 0.1, −0.1', () => {
    // Observed |sum| = 0.7. With +0.5 the sums are 0.9, 0.7, 0.7, 0.5, 0.5, 0.3, 0.3, 0.1:
    // three reach 0.7; mirrored, three more with −0.5. p = 6 / 16 = 0.375.
    expect(pairedRandomizationTest([0, 0, 0, 0], [0.5, 0.2, 0.1, -0.1])).toBe(0.375)
  })

  it('ignores pairs that did not change (they add nothing to any assignment)', () => {
    expect(pairedRandomizationTest([0, 0, 0, 5, 5], [1, 1, 1, 5, 5])).toBe(0.25)
  })

  it('gives p = 1 for identical runs and for no pairs', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 60 }), (a) => {
        expect(pairedRandomizationTest(a, [...a])).toBe(1)
      }),
    )
    expect(pairedRandomizationTest([], [])).toBe(1)
  })

  it('finds a consistent improvement over 50 queries significant, with the same p every time', () => {
    const a = Array.from({ length: 50 }, (_, i) => (i % 5) / 10)
    const b = a.map((value) => value + 0.1)
    const p = pairedRandomizationTest(a, b)
    expect(p).toBeLessThan(0.01)
    expect(p).toBeGreaterThan(0)
    expect(pairedRandomizationTest(a, b)).toBe(p)
  })

  it('finds noise around zero over 50 queries not significant', () => {
    const a = Array.from({ length: 50 }, () => 0.5)
    const b = a.map((value, i) => value + (i % 2 === 0 ? 0.1 : -0.1))
    expect(pairedRandomizationTest(a, b)).toBeGreaterThan(0.5)
  })

  it('is symmetric and stays in (0, 1] on random runs', () => {
    const runs = fc
      .array(
        fc.tuple(
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.double({ min: 0, max: 1, noNaN: true }),
        ),
        {
          maxLength: 40,
        },
      )
      .map((pairs) => [pairs.map(([x]) => x), pairs.map(([, y]) => y)] as const)
    fc.assert(
      fc.property(runs, ([a, b]) => {
        const p = pairedRandomizationTest(a, b, 500)
        expect(p).toBeGreaterThan(0)
        expect(p).toBeLessThanOrEqual(1)
        expect(pairedRandomizationTest(b, a, 500)).toBe(p)
      }),
      { numRuns: 50 },
    )
  })

  it('refuses runs of different lengths', () => {
    expect(() => pairedRandomizationTest([1], [1, 2])).toThrow(/same queries/)
  })
})
