import { describe, expect, it } from 'vitest'
import type { EvalPool, PoolDocument } from '#shared/model/evaluation'
import {
  coverageRows,
  documentRequest,
  foundText,
  judgingKey,
  judgingPress,
  poolGrades,
  poolItemKey,
  poolToJudge,
  webLink,
} from './pool-view'

const doc = (docKey: string, grade: PoolDocument['grade'], found: PoolDocument['found'] = []) => ({
  docKey,
  title: docKey,
  grade,
  found,
})

const pool: EvalPool = {
  setId: 's',
  depth: 5,
  runIds: ['r1', 'r2'],
  queries: [
    { queryId: 'q1', query: 'vpn', documents: [doc('a', null), doc('b', 2), doc('c', null)] },
    { queryId: 'q2', query: 'pto', documents: [doc('d', 0), doc('e', null)] },
  ],
  size: 5,
  judged: 2,
  coverage: [
    { runId: 'r2', list: { kind: 'provider', server: 'wiki' }, judgedAtK: 0.5 },
    { runId: 'r1', list: { kind: 'provider', server: 'wiki' }, judgedAtK: 0.25 },
    { runId: 'r1', list: { kind: 'merged', fusion: 'rrf' }, judgedAtK: null },
  ],
}

describe('pooled judging', () => {
  it('walks the unjudged documents query by query, in the pool’s order', () => {
    expect(poolToJudge(pool).map((item) => [item.queryId, item.doc.docKey, item.query])).toEqual([
      ['q1', 'a', 'vpn'],
      ['q1', 'c', 'vpn'],
      ['q2', 'e', 'pto'],
    ])
  })

  it('reads every pooled document’s grade by query and key', () => {
    const grades = poolGrades(pool)
    expect(grades.get(poolItemKey('q1', 'b'))).toBe(2)
    expect(grades.get(poolItemKey('q2', 'd'))).toBe(0)
    expect(grades.get(poolItemKey('q1', 'a'))).toBeNull()
    expect(grades.has(poolItemKey('q2', 'a'))).toBe(false)
  })

  it('maps keys: 0–3 grade, arrows and n/p move, Delete clears, others do nothing', () => {
    expect(
      ['0', '3', 'ArrowRight', 'n', 'ArrowLeft', 'p', 'Delete', '4', 'x'].map(judgingKey),
    ).toEqual([
      { kind: 'grade', grade: 0 },
      { kind: 'grade', grade: 3 },
      { kind: 'move', step: 1 },
      { kind: 'move', step: 1 },
      { kind: 'move', step: -1 },
      { kind: 'move', step: -1 },
      { kind: 'clear' },
      undefined,
      undefined,
    ])
  })

  it('says where a document was found, best rank per server, best first', () => {
    const found = doc('x', null, [
      { runId: 'r1', server: 'wiki', profileId: 'p', rank: 4 },
      { runId: 'r2', server: 'docs', profileId: 'p', rank: 2 },
      { runId: 'r2', server: 'wiki', profileId: 'p', rank: 1 },
    ])
    expect(foundText(found)).toBe('wiki #1, docs #2')
  })

  it('lays coverage out as lists × runs in the pool’s run order', () => {
    expect(coverageRows(pool).map((row) => [row.key, row.values])).toEqual([
      ['provider:wiki', [0.25, 0.5]],
      ['merged:rrf', [null, null]],
    ])
  })

  it('leaves keys alone when a modifier is held, something handled them, or an input has them', () => {
    const press = {
      key: '2',
      altKey: false,
      ctrlKey: false,
      metaKey: false,
      defaultPrevented: false,
    }
    expect(judgingPress(press, false)).toEqual({ kind: 'grade', grade: 2 })
    expect(judgingPress(press, true)).toBeUndefined()
    expect(judgingPress({ ...press, ctrlKey: true }, false)).toBeUndefined()
    expect(judgingPress({ ...press, altKey: true }, false)).toBeUndefined()
    expect(judgingPress({ ...press, metaKey: true }, false)).toBeUndefined()
    expect(judgingPress({ ...press, defaultPrevented: true }, false)).toBeUndefined()
    // Shift is no modifier here: it types nothing the judging reads.
    expect(judgingPress({ ...press, key: 'ArrowLeft' }, false)).toEqual({ kind: 'move', step: -1 })
  })

  it('asks for a document’s words where it ranked best', () => {
    const [item] = poolToJudge({
      ...pool,
      queries: [
        {
          queryId: 'q1',
          query: 'vpn',
          documents: [
            doc('a', null, [
              { runId: 'r1', server: 'wiki', profileId: 'carol', rank: 4 },
              { runId: 'r2', server: 'docs', profileId: 'dan', rank: 2 },
              { runId: 'r1', server: 'docs', profileId: 'carol', rank: 3 },
            ]),
          ],
        },
      ],
    })
    expect(documentRequest(item!)).toEqual({
      runId: 'r2',
      queryId: 'q1',
      profileId: 'dan',
      server: 'docs',
      docKey: 'a',
    })
  })

  it('opens only web links in the browser', () => {
    expect(webLink('https://kb.example/vpn')).toBe('https://kb.example/vpn')
    expect(webLink('HTTP://kb.example/vpn')).toBe('HTTP://kb.example/vpn')
    expect(webLink('file:///etc/passwd')).toBeUndefined()
    expect(webLink('javascript:alert(1)')).toBeUndefined()
    expect(webLink(undefined)).toBeUndefined()
    expect(webLink('')).toBeUndefined()
  })
})
