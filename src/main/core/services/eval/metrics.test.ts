import { describe, expect, it } from 'vitest'
import type { Grade } from '#shared/model/evaluation'
import { dcgOf, percentile, scoreQuery, topK, type Qrels } from './metrics'

const qrels = (entries: Record<string, Grade>): Qrels => new Map(Object.entries(entries))

describe('nDCG@k (gain = grade, log2(rank + 1) discount)', () => {
  // The worked example of Järvelin & Kekäläinen's graded DCG as Wikipedia gives it ("Discounted
  // cumulative gain", example): D1..D6 retrieved with grades 3, 2, 3, 0, 1, 2; D7 (3) and D8 (2)
  // are relevant but not retrieved.
  const ranked = ['D1', 'D2', 'D3', 'D4', 'D5', 'D6']
  const judged = qrels({ D1: 3, D2: 2, D3: 3, D4: 0, D5: 1, D6: 2, D7: 3, D8: 2 })

  it('computes DCG6 = 6.861 for grades 3, 2, 3, 0, 1, 2', () => {
    // 3/log2(2) + 2/log2(3) + 3/log2(4) + 0/log2(5) + 1/log2(6) + 2/log2(7)
    // = 3 + 1.26186 + 1.5 + 0 + 0.38685 + 0.71241 = 6.86112
    expect(dcgOf([3, 2, 3, 0, 1, 2])).toBeCloseTo(6.8611, 4)
  })

  it('computes nDCG6 = 0.785 against the ideal order 3, 3, 3, 2, 2, 2', () => {
    // IDCG6 = 3 + 3/log2(3) + 3/log2(4) + 2/log2(5) + 2/log2(6) + 2/log2(7)
    //       = 3 + 1.89279 + 1.5 + 0.86135 + 0.77371 + 0.71241 = 8.74026
    // nDCG6 = 6.86112 / 8.74026 = 0.78500
    expect(scoreQuery(ranked, judged, 6).ndcg).toBeCloseTo(0.785, 3)
  })

  it('cuts the ideal list at k too: nDCG@2 of 3, 2 against 3, 3', () => {
    // DCG2 = 3 + 2/log2(3) = 4.26186; IDCG2 = 3 + 3/log2(3) = 4.89279; 4.26186 / 4.89279 = 0.87105
    expect(scoreQuery(ranked, judged, 2).ndcg).toBeCloseTo(0.87105, 4)
  })
})

describe('MRR', () => {
  // Wikipedia's "Mean reciprocal rank" example: for "cat" the first correct answer is at rank 3,
  // for "torus" at rank 2, for "virus" at rank 1; MRR = (1/3 + 1/2 + 1) / 3 = 11/18 = 0.6111.
  it('averages 1/3, 1/2 and 1 to 11/18', () => {
    const rr = [
      scoreQuery(['catten', 'cati', 'cats'], qrels({ cats: 1 }), 3).rr,
      scoreQuery(['torii', 'tori', 'toruses'], qrels({ tori: 1 }), 3).rr,
      scoreQuery(['viruses', 'virii', 'viri'], qrels({ viruses: 1 }), 3).rr,
    ]
    expect(rr).toEqual([1 / 3, 1 / 2, 1])
    expect((rr[0]! + rr[1]! + rr[2]!) / 3).toBeCloseTo(11 / 18, 10)
  })

  it('is 0 when the first relevant document is below the cutoff', () => {
    // Relevant at rank 3 only; at k = 2 nothing relevant is in the list.
    expect(scoreQuery(['a', 'b', 'c'], qrels({ c: 1 }), 2).rr).toBe(0)
  })
})

describe('precision@k and recall@k', () => {
  // 20 relevant documents; the top 10 holds relevant ones at ranks 1, 2, 4, 5 and 6
  // (grade 1 each): P@10 = 5/10 = 0.5, R@10 = 5/20 = 0.25; P@5 = 4/5 = 0.8, R@5 = 4/20 = 0.2.
  const relevant = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`r${i}`, 1 as Grade]))
  const list = ['r0', 'r1', 'n0', 'r2', 'r3', 'r4', 'n1', 'n2', 'n3', 'n4']

  it('P@10 = 0.5 and R@10 = 0.25', () => {
    const scores = scoreQuery(list, qrels(relevant), 10)
    expect(scores.precision).toBe(0.5)
    expect(scores.recall).toBe(0.25)
    expect(scores.found).toBe(5)
    expect(scores.relevant).toBe(20)
  })

  it('P@5 = 0.8 and R@5 = 0.2', () => {
    const scores = scoreQuery(list, qrels(relevant), 5)
    expect(scores.precision).toBe(0.8)
    expect(scores.recall).toBe(0.2)
  })

  it('divides precision by k even when fewer than k documents came back (trec_eval P_k)', () => {
    // 2 hits, 1 relevant, k = 10: P@10 = 1/10.
    expect(scoreQuery(['a', 'b'], qrels({ a: 1 }), 10).precision).toBe(0.1)
  })

  it('counts grade 0 as judged not relevant, and unjudged documents as not relevant', () => {
    const scores = scoreQuery(['zero', 'unjudged', 'rel'], qrels({ zero: 0, rel: 2 }), 3)
    // Only "rel" is relevant, at rank 3: RR = 1/3, found 1 of 1.
    expect(scores).toMatchObject({ rr: 1 / 3, found: 1, relevant: 1, recall: 1, hit: true })
  })
})

describe('document identity in a ranked list', () => {
  it('counts a document returned twice once, at its first rank', () => {
    expect(topK(['a', 'a', 'b', 'a', 'c'], 2)).toEqual(['a', 'b'])
    // Two passages of "a" do not make it twice relevant: P@2 = 1/2, not 2/2.
    expect(scoreQuery(['a', 'a', 'b'], qrels({ a: 1 }), 2).precision).toBe(0.5)
  })
})

describe('queries without a relevant judgment', () => {
  it('score 0 with relevant = 0 (callers leave them out of means)', () => {
    expect(scoreQuery(['a'], qrels({ a: 0 }), 10)).toEqual({
      recall: 0,
      precision: 0,
      rr: 0,
      ndcg: 0,
      hit: false,
      relevant: 0,
      found: 0,
      // 'a' is judged (grade 0): the top 1 is fully judged.
      judged: 1,
    })
  })
})

describe('judged@k', () => {
  it('is the share of the top k with a judgment of any grade, null for an empty list', () => {
    // Top 4 of a, b, c, d, e: a (3) and c (0) judged, b and d not → 2 / 4
    expect(scoreQuery(['a', 'b', 'c', 'd', 'e'], qrels({ a: 3, c: 0, e: 1 }), 4).judged).toBe(0.5)
    // Fewer than k returned: the share of what was returned (a of a, b)
    expect(scoreQuery(['a', 'b'], qrels({ a: 1 }), 10).judged).toBe(0.5)
    expect(scoreQuery([], qrels({ a: 1 }), 10).judged).toBeNull()
  })
})

describe('percentile', () => {
  it('interpolates between ranks: p50 of 10, 20, 30, 40 is 25 and p95 is 38.5', () => {
    // p50: position (4 − 1) × 0.5 = 1.5 → 20 + (30 − 20) × 0.5 = 25
    // p95: position 3 × 0.95 = 2.85 → 30 + (40 − 30) × 0.85 = 38.5
    expect(percentile([40, 10, 30, 20], 0.5)).toBe(25)
    expect(percentile([40, 10, 30, 20], 0.95)).toBe(38.5)
    expect(percentile([], 0.5)).toBe(0)
  })
})

describe('cross-check with a reference implementation', () => {
  // ranx's README example (its metrics are tested against trec_eval): evaluate(qrels, run,
  // "ndcg@5") = 0.7861 and "mrr" = 0.75. Its grades go up to 6; the formula takes any gain.
  const graded = (entries: Record<string, number>): Qrels =>
    new Map(Object.entries(entries)) as unknown as Qrels
  const q1 = scoreQuery(
    ['d_12', 'd_23', 'd_25', 'd_36', 'd_32', 'd_35'],
    graded({ d_12: 5, d_25: 3 }),
    5,
  )
  const q2 = scoreQuery(
    ['d_12', 'd_11', 'd_25', 'd_36', 'd_22', 'd_35'],
    graded({ d_11: 6, d_22: 1 }),
    5,
  )

  it('gives ranx’s nDCG@5 = 0.7861', () => {
    // q_1: (5 + 3/log2(4)) / (5 + 3/log2(3)) = 6.5 / 6.89279 = 0.94302
    // q_2: (6/log2(3) + 1/log2(6)) / (6 + 1/log2(3)) = 4.17242 / 6.63093 = 0.62923
    expect((q1.ndcg + q2.ndcg) / 2).toBeCloseTo(0.7861, 4)
  })

  it('gives ranx’s MRR = 0.75', () => {
    // q_1: d_12 at rank 1 → 1; q_2: d_11 at rank 2 → 1/2
    expect((q1.rr + q2.rr) / 2).toBe(0.75)
  })
})
