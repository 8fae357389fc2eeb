import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { GoldenSet, Grade } from '#shared/model/evaluation'
import { decodeDocno, formatQrels, formatRun, parseQrels, parseRun, parseTopics } from './trec'

const docKey = fc.oneof(
  fc.webUrl({ withQueryParameters: true }).map((url) => `uri:${url}`),
  fc.string({ minLength: 1, maxLength: 30 }).map((id) => `id:${id}`),
)
const queryId = fc.stringMatching(/^[A-Za-z0-9][\w.-]{0,20}$/)

describe('TREC qrels', () => {
  it('round-trips every judgment of a set, whitespace and % in document keys included', () => {
    const judgments = fc.uniqueArray(
      fc.record({ docKey, grade: fc.constantFrom<Grade>(0, 1, 2, 3) }),
      { selector: (j) => j.docKey, maxLength: 8 },
    )
    const queries = fc.uniqueArray(fc.record({ id: queryId, judgments }), {
      selector: (q) => q.id,
      maxLength: 6,
    })
    fc.assert(
      fc.property(queries, (list) => {
        const set: GoldenSet = {
          version: 1,
          id: 's',
          name: 's',
          queries: list.map((q) => ({ ...q, query: q.id })),
        }
        const parsed = parseQrels(formatQrels(set))
        expect(parsed.skipped).toBe(0)
        for (const query of list) {
          const expected = new Map(query.judgments.map((j) => [j.docKey, j.grade]))
          expect(parsed.queries.get(query.id) ?? new Map()).toEqual(expected)
        }
      }),
    )
  })

  it('writes one `qid 0 docno grade` line per judgment', () => {
    const set: GoldenSet = {
      version: 1,
      id: 's',
      name: 's',
      queries: [
        {
          id: 'q1',
          query: 'vpn',
          judgments: [
            { docKey: 'uri:http://docs.test/a%20b', grade: 2 },
            { docKey: 'id:two words', grade: 0 },
          ],
        },
      ],
    }
    expect(formatQrels(set)).toBe('q1 0 uri:http://docs.test/a%2520b 2\nq1 0 id:two%20words 0\n')
  })

  it("reads another tool's qrels: bare docnos, grades clamped to 0..3, garbage lines counted", () => {
    const text = [
      '301 0 FBIS3-10082 1',
      '301 0 FBIS3-10169 -1',
      '301 0 FBIS3-10243 4',
      'not a qrels line',
      '301 0 %E0%A4%A 1',
      '../x 0 doc 1',
      '',
    ].join('\n')
    const { queries, skipped, skippedLines } = parseQrels(text)
    // Which lines, 1-based as an editor numbers them (empty lines count).
    expect(skippedLines).toEqual([4, 5, 6])
    expect(queries.get('301')).toEqual(
      new Map([
        ['id:FBIS3-10082', 1],
        ['id:FBIS3-10169', 0],
        ['id:FBIS3-10243', 3],
      ]),
    )
    expect(skipped).toBe(3)
  })
})

describe('TREC run files', () => {
  it('round-trips ranked lists (deduplicated, in order)', () => {
    const lists = fc.uniqueArray(
      fc.record({ queryId, docKeys: fc.array(docKey, { maxLength: 12 }) }),
      {
        selector: (l) => l.queryId,
        maxLength: 5,
      },
    )
    fc.assert(
      fc.property(lists, (input) => {
        const parsed = parseRun(formatRun(input, 'my run'))
        expect(parsed.skipped).toBe(0)
        for (const { queryId: id, docKeys } of input) {
          if (docKeys.length === 0) continue
          expect(parsed.queries.get(id)).toEqual([...new Set(docKeys)])
        }
        if (input.some((l) => l.docKeys.length > 0)) expect(parsed.tag).toBe('my_run')
      }),
    )
  })

  it('orders by score as trec_eval does, not by the rank column', () => {
    const text = 'q1 Q0 a 1 0.2 bm25\nq1 Q0 b 2 0.9 bm25\nq1 Q0 c 3 0.5 bm25\n'
    expect(parseRun(text)).toEqual({
      tag: 'bm25',
      queries: new Map([['q1', ['id:b', 'id:c', 'id:a']]]),
      skipped: 0,
      skippedLines: [],
    })
  })

  it('breaks score ties by docno, descending, whatever the rank column says (trec_eval)', () => {
    // a and c tie on 0.5: trec_eval puts c (the larger docno) first though a is ranked 1.
    const text = 'q1 Q0 a 1 0.5 bm25\nq1 Q0 c 2 0.5 bm25\nq1 Q0 b 3 0.9 bm25\n'
    expect(parseRun(text).queries.get('q1')).toEqual(['id:b', 'id:c', 'id:a'])
  })

  it('reads a line with text after the tag, which trec_eval ignores', () => {
    const { queries, skipped } = parseRun('q1 Q0 a 1 0.5 bm25 reserved for later\n')
    expect(queries.get('q1')).toEqual(['id:a'])
    expect(skipped).toBe(0)
  })

  it('skips lines with a missing field or a score that is not a number', () => {
    const { queries, skipped, skippedLines } = parseRun(
      'q1 Q0 a 1 x tag\nq1 Q0 b 1\nq1 Q0 c 1 1 tag\n',
    )
    expect(queries.get('q1')).toEqual(['id:c'])
    expect(skipped).toBe(2)
    expect(skippedLines).toEqual([1, 2])
  })
})

describe('skipped lines', () => {
  it('names the first 20 lines it skipped and counts them all', () => {
    const { skipped, skippedLines } = parseQrels('bad\n'.repeat(50))
    expect(skipped).toBe(50)
    expect(skippedLines).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
  })
})

describe('topics', () => {
  it('reads `qid<TAB>text` lines and counts the others', () => {
    const { topics, skipped } = parseTopics('q1\tvpn setup\nq2 no tab\n\nq3\t  \n')
    expect(topics).toEqual(new Map([['q1', 'vpn setup']]))
    expect(skipped).toBe(2)
  })
})

describe('docno decoding', () => {
  it('refuses a broken percent escape instead of throwing', () => {
    expect(decodeDocno('id:%E0%A4%A')).toBeUndefined()
  })
})
