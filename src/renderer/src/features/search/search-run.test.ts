import { describe, expect, it } from 'vitest'
import type { SearchResult, ServerSearchResult } from '../../../../shared/model/operations'
import { searchRunReducer, waterfallRows, type SearchRun } from './search-run'

const draft = { query: 'vpn', phrases: [], topK: 10, fusion: 'rrf' as const }
const part = (server: string, count = 1): ServerSearchResult => ({
  server,
  ok: true,
  status: 'ready',
  latencyMs: 5,
  count,
  hits: [],
  violations: [],
  sourceErrors: [],
})
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
