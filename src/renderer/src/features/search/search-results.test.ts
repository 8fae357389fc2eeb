import { describe, expect, it } from 'vitest'
import type { MergedHit } from '#shared/model/operations'
import { testHit, testPart } from '#test/support/model/hits'
import type { RunResult, SearchRun } from './search-run'
import {
  CHECK_ALL_LIMIT,
  citationCheck,
  expectedCount,
  ownRanks,
  summaryLine,
  tabCounts,
} from './search-results'

const running = (expected: string[] = ['a', 'b', 'c']): SearchRun => ({
  searchId: 's1',
  draft: { query: 'vpn', phrases: [], topK: 10, fusion: 'rrf' },
  expected,
  startedAt: 0,
  phase: 'running',
  servers: [],
  cancelling: false,
})
const done = (elapsedMs: number): SearchRun => ({
  ...running(),
  phase: 'done',
  result: {
    elapsedMs,
    user: { userId: 'alice', sessionTags: [], groups: [] },
  } as unknown as RunResult,
})
const merged = (count: number): MergedHit[] =>
  Array.from({ length: count }, (_, i) => ({
    ...testHit('wiki', `h${i}`, { uri: `https://wiki/${i}` }),
    fusedScore: 1 / (i + 1),
    rank: i + 1,
    foundIn: [],
  }))
const none = { documents: 0, shared: 0 }

describe('the status line', () => {
  it('counts servers answered while the search runs', () => {
    expect(summaryLine(running(), 0, 1, none)).toBe('1 of 3 servers answered')
    // A server may answer that the sources summary did not expect.
    expect(summaryLine(running(['a']), 0, 2, none)).toBe('2 of 2 servers answered')
  })

  it('gives the merged count, the time and the acting user once done', () => {
    expect(summaryLine(done(1240), 7, 1, none)).toBe('7 merged hits in 1.24 s as alice')
    expect(summaryLine(done(85), 1, 1, none)).toBe('1 merged hit in 85 ms as alice')
  })

  it('says whether providers returned the same documents, once two answered', () => {
    expect(summaryLine(running(), 0, 2, { documents: 5, shared: 2 })).toBe(
      '2 of 3 servers answered · 2 documents returned by more than one provider',
    )
    expect(summaryLine(done(85), 4, 2, { documents: 4, shared: 0 })).toBe(
      '4 merged hits in 85 ms as alice · no document returned by more than one provider',
    )
    expect(summaryLine(running(), 0, 1, { documents: 5, shared: 0 })).toBe(
      '1 of 3 servers answered',
    )
    expect(summaryLine(running(), 0, 2, none)).toBe('2 of 3 servers answered')
  })

  it('waits for the servers expected, or for more when more answered', () => {
    expect(expectedCount(running(), 1)).toBe(3)
    expect(expectedCount(running(), 5)).toBe(5)
    expect(expectedCount(null, 0)).toBe(0)
  })
})

describe('the tabs', () => {
  it('count merged hits once merged (even none), and servers and hits once there are some', () => {
    expect(tabCounts(undefined, 0, 0)).toEqual({})
    expect(tabCounts([], 2, 0)).toEqual({ merged: 0, providers: 2 })
    expect(tabCounts(merged(3), 2, 5)).toEqual({ merged: 3, providers: 2, all: 5 })
  })
})

describe('each hit’s own rank', () => {
  it('is its place in its own server’s list, counted from 1', () => {
    const [a1, a2, b1] = [testHit('a', '1'), testHit('a', '2'), testHit('b', '1')]
    const ranks = ownRanks([testPart('a', [a1, a2]), testPart('b', [b1])])
    expect([ranks.get(a1), ranks.get(a2), ranks.get(b1)]).toEqual([1, 2, 1])
    expect(ranks.get(testHit('a', '1'))).toBeUndefined()
  })
})

describe('Check all citations', () => {
  it('hands over each merged hit’s server, id and link, with a label naming the query', () => {
    const check = citationCheck(merged(2), 'vpn')
    expect(check.label).toBe('2 hits for “vpn”')
    expect(check.targets).toEqual([
      { hit: { server: 'wiki', id: 'h0', uri: 'https://wiki/0' } },
      { hit: { server: 'wiki', id: 'h1', uri: 'https://wiki/1' } },
    ])
  })

  it('hands over at most the first thousand, and the label still counts them all', () => {
    const check = citationCheck(merged(CHECK_ALL_LIMIT + 5), 'q')
    expect(check.targets).toHaveLength(CHECK_ALL_LIMIT)
    expect(check.label).toBe('1005 hits for “q”')
  })
})
