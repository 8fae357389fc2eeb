import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Grade } from '#shared/model/evaluation'
import { scoreQuery, type Qrels } from './metrics'

/** Documents d0..d19; a ranked list of some of them (repeats allowed) and judgments of some. */
const doc = fc.integer({ min: 0, max: 19 }).map((n) => `d${n}`)
const grade = fc.constantFrom<Grade>(0, 1, 2, 3)
const ranked = fc.array(doc, { maxLength: 30 })
const judged = fc
  .dictionary(doc, grade, { minKeys: 1, maxKeys: 20 })
  .map((entries): Qrels => new Map(Object.entries(entries)))
  .filter((qrels) => [...qrels.values()].some((g) => g > 0))
const cutoff = fc.integer({ min: 1, max: 25 })

const relevantBestFirst = (qrels: Qrels): string[] =>
  [...qrels]
    .filter(([, g]) => g > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([key]) => key)

describe('metric properties', () => {
  it('every metric lies in [0, 1]', () => {
    fc.assert(
      fc.property(ranked, judged, cutoff, (list, qrels, k) => {
        const s = scoreQuery(list, qrels, k)
        for (const value of [s.recall, s.precision, s.rr, s.ndcg]) {
          expect(value).toBeGreaterThanOrEqual(0)
          expect(value).toBeLessThanOrEqual(1 + 1e-12)
        }
      }),
    )
  })

  it('judged@k lies in [0, 1], is null only for an empty list, and judging a listed document never lowers it', () => {
    fc.assert(
      fc.property(ranked, judged, cutoff, grade, (list, qrels, k, g) => {
        const s = scoreQuery(list, qrels, k)
        if (list.length === 0) {
          expect(s.judged).toBeNull()
          return
        }
        expect(s.judged).toBeGreaterThanOrEqual(0)
        expect(s.judged).toBeLessThanOrEqual(1)
        const more = new Map(qrels).set(list[0]!, g)
        expect(scoreQuery(list, more, k).judged).toBeGreaterThanOrEqual(s.judged!)
      }),
    )
  })

  it('a perfect run (every relevant document, best grade first) scores 1', () => {
    fc.assert(
      fc.property(judged, cutoff, (qrels, k) => {
        const ideal = relevantBestFirst(qrels)
        const s = scoreQuery(ideal, qrels, k)
        expect(s.ndcg).toBeCloseTo(1, 12)
        expect(s.rr).toBe(1)
        expect(s.hit).toBe(true)
        if (k >= ideal.length) expect(s.recall).toBe(1)
        if (k <= ideal.length) expect(s.precision).toBe(1)
      }),
    )
  })

  it('recall@k never falls as k grows', () => {
    fc.assert(
      fc.property(ranked, judged, cutoff, (list, qrels, k) => {
        expect(scoreQuery(list, qrels, k + 1).recall).toBeGreaterThanOrEqual(
          scoreQuery(list, qrels, k).recall,
        )
      }),
    )
  })

  it('putting a relevant document at rank 1 never lowers MRR, recall or hit', () => {
    fc.assert(
      fc.property(ranked, judged, cutoff, (list, qrels, k) => {
        const relevant = relevantBestFirst(qrels)[0]!
        const before = scoreQuery(list, qrels, k)
        const after = scoreQuery([relevant, ...list], qrels, k)
        expect(after.rr).toBe(1)
        expect(after.rr).toBeGreaterThanOrEqual(before.rr)
        expect(after.recall).toBeGreaterThanOrEqual(before.recall)
        expect(after.hit).toBe(true)
      }),
    )
  })

  it('swapping a better-graded document above a worse one never lowers nDCG', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(doc, { minLength: 2, maxLength: 20 }),
        judged,
        cutoff,
        fc.nat(),
        (list, qrels, k, at) => {
          const i = at % (list.length - 1)
          const [upper, lower] = [list[i]!, list[i + 1]!]
          const g = (key: string): number => qrels.get(key) ?? 0
          if (g(lower) <= g(upper)) return
          const swapped = [...list]
          swapped[i] = lower
          swapped[i + 1] = upper
          expect(scoreQuery(swapped, qrels, k).ndcg).toBeGreaterThanOrEqual(
            scoreQuery(list, qrels, k).ndcg - 1e-12,
          )
        },
      ),
    )
  })

  it('judging one more unretrieved document relevant never raises recall or nDCG', () => {
    fc.assert(
      fc.property(ranked, judged, cutoff, grade, (list, qrels, k, g) => {
        const extra = 'not-retrieved'
        const more = new Map(qrels).set(extra, g)
        const before = scoreQuery(list, qrels, k)
        const after = scoreQuery(list, more, k)
        expect(after.recall).toBeLessThanOrEqual(before.recall + 1e-12)
        expect(after.ndcg).toBeLessThanOrEqual(before.ndcg + 1e-12)
      }),
    )
  })
})
