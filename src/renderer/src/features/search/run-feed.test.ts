import { QueryClient } from '@tanstack/react-query'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { SearchReply } from '#shared/ipc/rag'
import type { ServerSearchResult } from '#shared/model/operations'
import { testHit, testPart } from '#test/support/model/hits'
import { searchKeys } from './queries'
import { searchFeed } from './run-feed'
import type { SearchRun } from './search-run'

const part = (server: string, ids: string[]): ServerSearchResult =>
  testPart(
    server,
    ids.map((id) => testHit(server, id)),
  )
const draft = { query: 'vpn', phrases: [], topK: 10, fusion: 'rrf' as const }

describe('searchFeed', () => {
  vi.useFakeTimers()
  afterEach(() => vi.clearAllTimers())
  afterAll(() => vi.useRealTimers())

  it('lands a reply after every progress event that came before it, still waiting for its batch', () => {
    const queryClient = new QueryClient()
    const feed = searchFeed(queryClient)
    feed.apply({ type: 'started', searchId: 's1', draft, expected: ['a', 'b'], at: 0 })
    feed.progress({ searchId: 's1', result: part('a', ['a1', 'a2']) })
    // The last server's event is the last thing before the reply.
    feed.progress({ searchId: 's1', result: part('b', ['b1']) })
    const reply = {
      searchId: 's1',
      fusion: 'rrf',
      hits: [],
      servers: ['a', 'b'].map((server) => ({
        server,
        ok: true,
        status: 'ready',
        latencyMs: 5,
        count: server === 'a' ? 2 : 1,
        streamed: true,
      })),
    } as unknown as SearchReply
    feed.apply({ type: 'finished', result: reply })
    const run = queryClient.getQueryData<SearchRun>(searchKeys.run())!
    expect(run.phase).toBe('done')
    expect(run.servers.flatMap((s) => s.hits.map((h) => h.id))).toEqual(['a1', 'a2', 'b1'])
    expect(run.awaiting).toBeUndefined()
  })

  it('folds progress events that come together into one update', () => {
    const queryClient = new QueryClient()
    const feed = searchFeed(queryClient)
    feed.apply({ type: 'started', searchId: 's1', draft, expected: ['a', 'b'], at: 0 })
    const updates = vi.fn()
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated') updates()
    })
    feed.progress({ searchId: 's1', result: part('a', ['a1']) })
    feed.progress({ searchId: 's1', result: part('b', ['b1']) })
    expect(updates).not.toHaveBeenCalled()
    vi.runAllTimers()
    expect(updates).toHaveBeenCalledTimes(1)
    const run = queryClient.getQueryData<SearchRun>(searchKeys.run())!
    expect(run.servers.map((s) => s.server)).toEqual(['a', 'b'])
  })
})
