import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  compareBytes,
  fixed4,
  formatTrecEval,
  rankTrec,
  readTrecQrels,
  readTrecRun,
  trecEval,
} from './trec-eval'
import {
  linesOf,
  published,
  trecEvalFixture,
  trecMeasures,
} from '#test/support/eval/trec-eval-fixtures'

/**
 * trec_eval compatibility: hand-computed examples (their arithmetic written out), then
 * trec_eval's own test files with the outputs its repository publishes for them
 * (src/test/fixtures/eval/trec_eval, see its README).
 */

// Query q1: d1 (2), d2 (0), d3 (1), d4 (3, not retrieved), d5 (-1: in the pool, not judged).
const QRELS = ['q1 0 d1 2', 'q1 0 d2 0', 'q1 0 d3 1', 'q1 0 d4 3', 'q1 0 d5 -1', 'q2 0 x 1'].join(
  '\n',
)
// The rank field says d3 before d9; trec_eval ignores it: d9 and d3 tie on score 0.9 and the
// tie goes to the larger docno, d9. q3 has no judgments.
const RUN = [
  'q1 Q0 d2 4 0.5 sys',
  'q1 Q0 d1 1 1.0 sys',
  'q1 Q0 d3 2 0.9 sys',
  'q1 Q0 d9 3 0.9 sys',
  'q1 Q0 d5 5 0.4 sys',
  'q3 Q0 d1 1 1.0 sys',
].join('\n')

const evaluate = (complete: boolean) =>
  trecEval(readTrecQrels(QRELS, 'qrels'), readTrecRun(RUN, 'run'), { cutoffs: [5, 2], complete })

describe('trec_eval semantics, by hand', () => {
  it('ranks by score descending, ties by docno descending, ignoring the rank field', () => {
    expect(rankTrec(readTrecRun(RUN, 'run').queries.get('q1')!)).toEqual([
      'd1',
      'd9',
      'd3',
      'd2',
      'd5',
    ])
  })

  it('computes map, recip_rank, P, recall and ndcg_cut of q1 as written out', () => {
    const q1 = evaluate(false).queries[0]!
    // Ranked grades: d1 2, d9 unjudged, d3 1, d2 0, d5 unjudged (-1). Relevant (≥ 1): d1, d3, d4.
    expect(q1).toMatchObject({ qid: 'q1', num_ret: 5, num_rel: 3, num_rel_ret: 2 })
    // AP = (1/1 + 2/3) / 3 relevant judged = 0.55556
    expect(q1.map).toBeCloseTo(5 / 9, 12)
    expect(q1.recip_rank).toBe(1)
    // cutoffs sorted: [2, 5]. P_2 = 1/2; P_5 = 2/5. recall_2 = 1/3; recall_5 = 2/3.
    expect(q1.P).toEqual([0.5, 0.4])
    expect(q1.recall).toEqual([1 / 3, 2 / 3])
    // DCG_2 = 2/log2(2) + 0 = 2; IDCG_2 = 3/log2(2) + 2/log2(3) = 4.26186 → 0.46928
    // DCG_5 = 2 + 0 + 1/log2(4) + 0 + 0 = 2.5; IDCG_5 = 3 + 1.26186 + 1/2 = 4.76186 → 0.52501
    expect(q1.ndcg_cut[0]).toBeCloseTo(2 / (3 + 2 / Math.log2(3)), 12)
    expect(fixed4(q1.ndcg_cut[0]!)).toBe('0.4693')
    expect(fixed4(q1.ndcg_cut[1]!)).toBe('0.5250')
    // judged: top 2 = d1 (judged), d9 (not) → 0.5; top 5 adds d3, d2 (judged), d5 (-1: not) → 3/5
    expect(q1.judged).toEqual([0.5, 0.6])
  })

  it('leaves out queries without judgments and, without -c, queries without run lines', () => {
    const result = evaluate(false)
    expect(result.queries.map((q) => q.qid)).toEqual(['q1'])
    expect(result.unjudgedQueries).toEqual(['q3'])
    expect(result.unrankedQueries).toEqual(['q2'])
    expect(result.all.num_q).toBe(1)
    expect(result.all.map).toBeCloseTo(5 / 9, 12)
  })

  it('with -c scores a judged query without run lines as an empty ranking, in the means', () => {
    const result = evaluate(true)
    expect(result.queries.map((q) => [q.qid, q.unranked])).toEqual([
      ['q1', false],
      ['q2', true],
    ])
    expect(result.queries[1]).toMatchObject({ num_ret: 0, num_rel: 1, map: 0, recip_rank: 0 })
    expect(result.queries[1]!.judged).toEqual([null, null])
    expect(result.all.num_q).toBe(2)
    // (5/9 + 0) / 2 = 0.27778; P_2 = (0.5 + 0) / 2; judged@2 averages over q1 only (q2 is empty)
    expect(fixed4(result.all.map)).toBe('0.2778')
    expect(result.all.P[0]).toBe(0.25)
    expect(result.all.judged[0]).toBe(0.5)
    expect(result.all.num_rel).toBe(4)
  })

  it('keeps grades above 3 as gains and reads rel as an integer (atol)', () => {
    const qrels = readTrecQrels('a 0 x 4\na 0 y 1.9\n', 'qrels')
    expect(qrels.get('a')).toEqual(
      new Map([
        ['x', 4],
        ['y', 1],
      ]),
    )
    const result = trecEval(qrels, readTrecRun('a Q0 y 1 2 r\na Q0 x 2 1 r\n', 'run'), {
      cutoffs: [2],
      complete: false,
    })
    // DCG_2 = 1 + 4/log2(3) = 3.52372; IDCG_2 = 4 + 1/log2(3) = 4.63093 → 0.76091
    expect(fixed4(result.queries[0]!.ndcg_cut[0]!)).toBe('0.7609')
  })

  it('orders queries and ties by bytes, as strcmp', () => {
    expect(['9', '10', 'b', 'B', 'é', 'z'].sort(compareBytes)).toEqual([
      '10',
      '9',
      'B',
      'b',
      'z',
      'é',
    ])
    const qrels = readTrecQrels('9 0 a 1\n10 0 a 1\n', 'qrels')
    const run = readTrecRun('9 Q0 a 1 1 r\n10 Q0 a 1 1 r\n', 'run')
    expect(
      trecEval(qrels, run, { cutoffs: [1], complete: false }).queries.map((q) => q.qid),
    ).toEqual(['10', '9'])
  })

  it('prints %6.4f as glibc does: exact binary value, ties to even', () => {
    expect(fixed4(1 / 32)).toBe('0.0312') // 0.03125 exactly: a tie, 312 is even
    expect(fixed4(3 / 32)).toBe('0.0938') // 0.09375 exactly: a tie, 937 is odd
    expect(fixed4(0.00005)).toBe('0.0001') // stored a little above 0.00005
    expect(fixed4(2 / 3)).toBe('0.6667')
    expect(fixed4(0)).toBe('0.0000')
    expect(fixed4(1)).toBe('1.0000')
    expect(fixed4(12.5)).toBe('12.5000')
  })

  it('refuses malformed lines and duplicates, naming the file and the line', () => {
    expect(() => readTrecQrels('q1 0 d1\n', 'qrels.txt')).toThrow(
      /qrels\.txt line 1 is not a TREC line \(qid iter docno rel/,
    )
    expect(() => readTrecQrels('q1 0 d1 high\n', 'q')).toThrow(/q line 1 is not a TREC line/)
    expect(() => readTrecRun('# header\nq1 Q0 d1 1 x sys\n', 'run.txt')).toThrow(
      /run\.txt line 2 is not a TREC line \(qid Q0 docno rank score tag/,
    )
    expect(() => readTrecRun('q1 Q0 d1 1 1 s\nq1 Q0 d1 2 0.5 s\n', 'r')).toThrow(
      /r line 2: document d1 appears twice for query q1/,
    )
    expect(() => readTrecQrels('q1 0 d1 1\nq1 0 d1 0\n', 'q')).toThrow(/judged twice/)
    expect(() =>
      trecEval(readTrecQrels('a 0 x 1', 'q'), readTrecRun('b Q0 x 1 1 r', 'r'), {
        cutoffs: [5],
        complete: false,
      }),
    ).toThrow(/no query has both judgments and run lines/)
  })
})

describe("trec_eval's published outputs for its own test files", () => {
  const fixture = (name: string): string => readFileSync(trecEvalFixture(name), 'utf8')
  const CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
  const MEASURES = trecMeasures(CUTOFFS)
  const ours = (qrels: string, run: string, complete: boolean, measures = MEASURES): string[] =>
    linesOf(
      formatTrecEval(
        trecEval(readTrecQrels(fixture(qrels), qrels), readTrecRun(fixture(run), run), {
          cutoffs: CUTOFFS,
          complete,
        }),
      ),
      measures,
    )
  /** trec_eval's lines for the measures the console computes, in trec_eval's order. */
  const theirs = (name: string, measures = MEASURES): string[] => published(name, measures)

  it('matches `trec_eval -m all_trec -q qrels.test results.test` line for line', () => {
    const expected = theirs('out.test.aq')
    expect(expected).toHaveLength(3 * 32 + 34) // the file holds every measure asked for
    expect(ours('qrels.test', 'results.test', false)).toEqual(expected)
  })

  it('matches `trec_eval -m all_trec -q -c qrels.test results.trunc` (302 has no run lines)', () => {
    const expected = theirs('out.test.aqc')
    expect(expected.filter((line) => /\t302\t/.test(line))).toHaveLength(32)
    expect(ours('qrels.test', 'results.trunc', true)).toEqual(expected)
  })

  it('leaves 302 out of results.trunc without -c, averaging over 301 and 303', () => {
    const result = trecEval(
      readTrecQrels(fixture('qrels.test'), 'q'),
      readTrecRun(fixture('results.trunc'), 'r'),
      { cutoffs: [5], complete: false },
    )
    expect(result.unrankedQueries).toEqual(['302'])
    expect(result.queries.map((q) => q.qid)).toEqual(['301', '303'])
    // Per query as out.test.aqc prints them: map 0.0324 and 0.2723.
    expect(result.queries.map((q) => fixed4(q.map))).toEqual(['0.0324', '0.2723'])
    expect(result.all.num_q).toBe(2)
    expect(result.all.map).toBe((result.queries[0]!.map + result.queries[1]!.map) / 2)
  })

  it('matches the graded ndcg_cut_k of `qrels.rel_level` (grades 0–4) line for line', () => {
    const ndcg = new Set(['num_ret', ...CUTOFFS.map((k) => `ndcg_cut_${k}`)])
    const expected = theirs('out.test.aql', ndcg)
    expect(expected).toHaveLength(4 * 10)
    expect(ours('qrels.rel_level', 'results.test', false, ndcg)).toEqual(expected)
  })
})
