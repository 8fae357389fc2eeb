import { describe, expect, it } from 'vitest'
import { fuseHits } from '#shared/model/fusion'
import type { SearchReply, StreamedPart } from '#shared/ipc/rag'
import type { SearchResult, ServerSearchResult } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { testHit as hit, testPart } from '#test/support/model/hits'
import { mergedHits, searchRunReducer, waterfallRows, type SearchRun } from './search-run'

const draft = { query: 'vpn', phrases: [], topK: 10, fusion: 'rrf' as const }
const part = (server: string, count = 1): ServerSearchResult => testPart(server, [], { count })
const summary = (server: string, count: number): StreamedPart => ({
  server,
  ok: true,
  status: 'ready',
  latencyMs: 5,
  count,
  streamed: true,
})
const reply = (servers: SearchReply['servers']): SearchReply =>
  ({ searchId: 's1', servers, hits: [], fusion: 'rrf' }) as unknown as SearchReply
const start = (): SearchRun =>
  searchRunReducer(null, {
    type: 'started',
    searchId: 's1',
    draft,
    expected: ['a', 'b'],
    at: 0,
  })!

describe('searchRunReducer', () => {
  it('collects per-server parts as they arrive, latest per server', () => {
    let run = start()
    run = searchRunReducer(run, { type: 'progress', searchId: 's1', result: part('b') })!
    run = searchRunReducer(run, { type: 'progress', searchId: 's1', result: part('b', 3) })!
    expect(run.servers.map((s) => [s.server, s.count])).toEqual([['b', 3]])
  })

  it('ignores events of another search', () => {
    const run = start()
    expect(
      searchRunReducer(run, { type: 'progress', searchId: 'old', result: part('a') })!.servers,
    ).toEqual([])
  })

  it('takes the final result as the truth when the search resolves', () => {
    const result = {
      searchId: 's1',
      servers: [part('a'), part('b')],
      hits: [],
    } as unknown as SearchResult
    const run = searchRunReducer(start(), { type: 'finished', result })!
    expect(run.phase).toBe('done')
    expect(run.servers).toHaveLength(2)
  })

  it('keeps the hits that came as progress when the streamed reply sums their parts up', () => {
    const withHits = { ...part('a', 1), hits: [hit('a', 'a1')] }
    let run = searchRunReducer(start(), { type: 'progress', searchId: 's1', result: withHits })!
    run = searchRunReducer(run, {
      type: 'finished',
      result: reply([summary('a', 1)]),
    })!
    expect(run.phase).toBe('done')
    expect(run.servers[0]!.hits.map((h) => h.id)).toEqual(['a1'])
    expect(run.result!.servers[0]!.hits.map((h) => h.id)).toEqual(['a1'])
  })

  it('fills in the hits of a server whose progress comes after the reply, and only those', () => {
    let run = searchRunReducer(start(), {
      type: 'finished',
      result: reply([summary('a', 1)]),
    })!
    expect(run.servers[0]).toMatchObject({ server: 'a', count: 1, hits: [] })
    const late = { ...part('a', 1), hits: [hit('a', 'a1')] }
    run = searchRunReducer(run, { type: 'progress', searchId: 's1', result: late })!
    expect(run.servers[0]!.hits.map((h) => h.id)).toEqual(['a1'])
    expect(run.result!.servers[0]!.hits.map((h) => h.id)).toEqual(['a1'])
    // Once filled in, the run takes no more parts.
    const again = { ...part('a', 2), hits: [hit('a', 'a1'), hit('a', 'a2')] }
    expect(searchRunReducer(run, { type: 'progress', searchId: 's1', result: again })).toBe(run)
  })

  it('marks a cancel request only while running', () => {
    const run = searchRunReducer(start(), { type: 'cancelRequested', searchId: 's1' })!
    expect(run.cancelling).toBe(true)
    const failed = searchRunReducer(start(), { type: 'failed', searchId: 's1', message: 'x' })!
    expect(searchRunReducer(failed, { type: 'cancelRequested', searchId: 's1' })!.cancelling).toBe(
      false,
    )
  })

  it('lists answered servers first, then those still out', () => {
    const run = searchRunReducer(start(), { type: 'progress', searchId: 's1', result: part('b') })!
    expect(waterfallRows(run).map((r) => [r.server, r.result !== undefined])).toEqual([
      ['b', true],
      ['a', false],
    ])
  })
})

describe('mergedHits', () => {
  const scored = (server: string, id: string, score: number): Hit => ({ ...hit(server, id), score })
  const servers = [
    { ...part('a', 2), hits: [scored('a', 'a1', 0.2), scored('a', 'a2', 0.1)] },
    { ...part('b', 2), hits: [scored('b', 'b1', 9), scored('b', 'b2', 8)] },
    { ...part('c', 0), ok: false, hits: [] },
  ]
  const lists = servers.filter((s) => s.ok)
  const done = (topK: number): SearchRun => {
    const result = {
      searchId: 's1',
      fusion: 'rrf',
      servers,
      hits: fuseHits(lists, 'rrf').slice(0, topK),
    } as unknown as SearchResult
    return searchRunReducer(
      { ...start(), draft: { ...draft, topK } },
      { type: 'finished', result },
    )!
  }

  it("is main's merged list while the fusion is the one the search ran with", () => {
    const run = done(10)
    expect(mergedHits(run, 'rrf')).toBe(run.result!.hits)
  })

  it('re-fuses the per-server hits at once when the fusion changes, within top k', () => {
    expect(mergedHits(done(10), 'score')!.map((h) => h.id)).toEqual(['b1', 'b2', 'a1', 'a2'])
    expect(mergedHits(done(3), 'score')!.map((h) => [h.id, h.rank])).toEqual([
      ['b1', 1],
      ['b2', 2],
      ['a1', 3],
    ])
  })

  it('works out where each hit of a streamed reply was found, from the parts the run holds', () => {
    const run = done(10)
    const whole = run.result!.hits
    // A streamed reply sends the merged list without its places.
    const streamed = {
      ...run,
      result: { ...run.result!, hits: whole.map(({ foundIn: _foundIn, ...hit }) => hit) },
    }
    expect(mergedHits(streamed, 'rrf')).toEqual(whole)
    expect(mergedHits(streamed, 'rrf')![0]!.foundIn).toEqual([
      expect.objectContaining({ server: expect.any(String), rank: 1 }),
    ])
  })

  it('is undefined until the search has a result', () => {
    expect(mergedHits(start(), 'score')).toBeUndefined()
    expect(mergedHits(null, 'rrf')).toBeUndefined()
  })
})
