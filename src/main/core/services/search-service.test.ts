import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerSearchResult } from '#shared/model/operations'
import { RRF_K } from '#shared/model/fusion'
import { extraPhrases } from './search-service'
import {
  DOWN_URL,
  fixtureEntry,
  startCore,
  startHttpFixture,
  whenState,
  type LiveCore,
  type Started,
} from '#test/support/core/live'
import { waitFor } from '#test/support/process/wait-for'

/**
 * Fan-out search through the whole console (pool, adapters, audit, fusion) against fixture
 * servers: fast and slow over stdio, medium over streamable HTTP, one down, one that refuses
 * the console's key, and one slow enough to test cancellation.
 */
let live: LiveCore
let locked: Started
let medium: Started
const SLOW_MS = 700

beforeAll(async () => {
  locked = await startHttpFixture(['--name', 'locked', '--api-key', 'the-right-key'])
  medium = await startHttpFixture(['--name', 'medium', '--delay', '150', '--shared', '2'])
  live = await startCore({
    fast: fixtureEntry(['--name', 'fast', '--delay', '0', '--shared', '2']),
    medium: { url: medium.url, dialect: 'rag-tools-v1', timeoutMs: 5_000 },
    slow: fixtureEntry(['--name', 'slow', '--delay', String(SLOW_MS)]),
    stuck: fixtureEntry(['--name', 'stuck', '--delay', '60000'], { timeoutMs: 120_000 }),
    down: { url: DOWN_URL, dialect: 'rag-tools-v1', timeoutMs: 2_000 },
    locked: {
      url: locked.url,
      headers: { 'X-API-Key': 'a-wrong-key-12345' },
      dialect: 'rag-tools-v1',
      timeoutMs: 2_000,
    },
  })
  await whenState(live.core, ['fast', 'medium', 'slow', 'stuck'])
})

afterAll(async () => {
  await live?.close()
  await Promise.all([locked?.stop(), medium?.stop()])
})

const healthy = { fast: [], medium: [], slow: [] }

function progressOf(searchId: string): { events: ServerSearchResult[]; at: number[] } {
  const seen = { events: [] as ServerSearchResult[], at: [] as number[] }
  live.core.events.on('search:progress', (event) => {
    if (event.searchId !== searchId) return
    seen.events.push(event.result)
    seen.at.push(Date.now())
  })
  return seen
}

describe('search fan-out', () => {
  it('answers with every server side by side: results, a slow one, one down, one refusing the key', async () => {
    // When each server's tools/call went out and its answer came in (the first time each passed).
    const sent = new Map<string, number>()
    const answered = new Map<string, number>()
    const off = live.core.pool.onProtocol((server, entry) => {
      if (entry.direction === 'out' && entry.method === 'tools/call' && !sent.has(server)) {
        sent.set(server, entry.at)
      }
      if (entry.direction === 'in' && entry.kind === 'response' && sent.has(server)) {
        if (!answered.has(server)) answered.set(server, entry.at)
      }
    })
    const result = await live.core.services.search.run({
      searchId: 'partial',
      query: 'vpn setup',
      selection: { ...healthy, down: [], locked: [] },
    })
    // Protocol entries are worked out a turn after their message passed.
    await new Promise((resolve) => setImmediate(resolve))
    off()
    const byServer = Object.fromEntries(result.servers.map((s) => [s.server, s]))
    expect(result.servers.map((s) => s.server)).toEqual([
      'fast',
      'medium',
      'slow',
      'down',
      'locked',
    ])
    for (const id of ['fast', 'medium', 'slow']) {
      expect(byServer[id]).toMatchObject({ ok: true, count: 5, status: 'ready' })
    }
    expect(byServer.down).toMatchObject({ ok: false, count: 0, hits: [] })
    expect(byServer.down?.error?.code).toMatch(/unreachable|not_connected|timeout/)
    expect(byServer.down?.error?.message).toMatch(/down/)
    expect(byServer.locked?.ok).toBe(false)
    expect(byServer.locked?.error?.code).toMatch(/unauthorized|action_required/)
    expect(result.hits.length).toBeGreaterThan(0)
    // Side by side: each of medium's and slow's calls went out before the other was answered
    // (one after another, one of them would go out only after the other's answer).
    expect(sent.get('slow')).toBeLessThan(answered.get('medium')!)
    expect(sent.get('medium')).toBeLessThan(answered.get('slow')!)
    expect(result.phrases).toEqual(['vpn setup'])
  })

  it('emits each server as it answers, fastest first, all before the search resolves', async () => {
    const seen = progressOf('stream')
    const result = await live.core.services.search.run({
      searchId: 'stream',
      query: 'printer drivers',
      selection: { slow: [], medium: [], fast: [] },
    })
    const resolvedAt = Date.now()
    expect(seen.events.map((e) => e.server)).toEqual(['fast', 'medium', 'slow'])
    expect(seen.at.every((at) => at <= resolvedAt)).toBe(true)
    expect(seen.events.map((e) => e.count)).toEqual([5, 5, 5])
    expect(result.servers.map((s) => s.server)).toEqual(['fast', 'medium', 'slow'])
  })

  it('sends to the servers that answered slowest last time first, and reports in registry order', async () => {
    const selection = { fast: [], medium: [], slow: [] }
    await live.core.services.search.run({ searchId: 'learn-latency', query: 'vpn', selection })
    // Its protocol log entries are worked out a turn after it answered: not counted below.
    await new Promise((resolve) => setImmediate(resolve))
    const sent: string[] = []
    const off = live.core.pool.onProtocol((server, entry) => {
      // An HTTP request is announced again once its exchange is known: count it once.
      if (entry.direction !== 'out' || entry.method !== 'tools/call') return
      if (entry.httpStatus === undefined || !sent.includes(server)) sent.push(server)
    })
    try {
      const result = await live.core.services.search.run({
        searchId: 'slowest-first',
        query: 'vpn',
        selection,
      })
      // The logs are worked out after the search answered, in the order their messages passed.
      expect(sent).toEqual([])
      await new Promise((resolve) => setImmediate(resolve))
      expect(sent).toEqual(['slow', 'medium', 'fast'])
      expect(result.servers.map((s) => s.server)).toEqual(['fast', 'medium', 'slow'])
    } finally {
      off()
    }
  })

  it('merges duplicates across servers and ranks them by reciprocal rank fusion', async () => {
    const result = await live.core.services.search.run({
      searchId: 'merge',
      query: 'expense policy',
      topK: 5,
      selection: healthy,
    })
    const [first, second, third] = result.hits
    expect(first?.uri).toBe('https://docs.example/shared/0')
    expect(first?.foundIn.map((f) => [f.server, f.rank])).toEqual([
      ['fast', 1],
      ['medium', 1],
    ])
    expect(first?.fusedScore).toBeCloseTo(2 / (RRF_K + 1), 10)
    expect(second?.uri).toBe('https://docs.example/shared/1')
    expect(second?.fusedScore).toBeCloseTo(2 / (RRF_K + 2), 10)
    expect(third?.uri).toBe('https://docs.example/slow/0')
    expect(third?.fusedScore).toBeCloseTo(1 / (RRF_K + 1), 10)
    expect(result.hits.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5])
    expect(new Set(result.hits.map((h) => h.uri)).size).toBe(result.hits.length)
  })

  it('ranks by the best raw score in score mode', async () => {
    const result = await live.core.services.search.run({
      searchId: 'score',
      query: 'expense policy',
      fusion: 'score',
      selection: { fast: [], slow: [] },
    })
    const scores = result.hits.map((h) => h.fusedScore)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    expect(result.fusion).toBe('score')
  })

  it('sends the query as typed first and at most four distinct extra phrases', () => {
    expect(extraPhrases(' VPN ', ['vpn', 'VPN', ' a ', 'b', 'a', '', 'c', 'd', 'e'])).toEqual([
      'vpn',
      'a',
      'b',
      'c',
    ])
  })

  it('stops waiting for a server past its budget without holding up the others', async () => {
    const result = await live.core.services.search.run({
      searchId: 'budget',
      query: 'vpn',
      timeoutMs: 300,
      selection: { fast: [], slow: [] },
    })
    const slow = result.servers.find((s) => s.server === 'slow')
    expect(slow?.error?.code).toBe('timeout')
    expect(slow?.error?.message).toMatch(/did not answer within 300 ms/)
    expect(result.servers.find((s) => s.server === 'fast')?.ok).toBe(true)
  })

  it('cancels a running search: in-flight calls are aborted and it resolves with what arrived', async () => {
    const seen = progressOf('cancel-me')
    let stuckAsked = false
    const off = live.core.pool.onProtocol((server, entry) => {
      if (server === 'stuck' && entry.direction === 'out' && entry.method === 'tools/call') {
        stuckAsked = true
      }
    })
    const pending = live.core.services.search.run({
      searchId: 'cancel-me',
      query: 'vpn',
      selection: { fast: [], stuck: [] },
    })
    await waitFor(() => seen.events.some((e) => e.server === 'fast'), 'fast to answer')
    // The stuck server's call is in flight, not still on its way out.
    await waitFor(() => stuckAsked, 'the search call to the stuck server to go out')
    off()
    const cancelledAt = Date.now()
    expect(live.core.services.search.cancel('cancel-me')).toBe(true)
    const result = await pending
    // Far from the stuck server's 60 s: the cancel, not the reply, ended the run.
    expect(Date.now() - cancelledAt).toBeLessThan(10_000)
    expect(result.cancelled).toBe(true)
    expect(result.servers.find((s) => s.server === 'fast')?.ok).toBe(true)
    expect(result.servers.find((s) => s.server === 'stuck')?.error?.code).toBe('cancelled')
    expect(live.core.services.search.cancel('cancel-me')).toBe(false)
    // The stuck server saw the cancellation: its sleeping call ended.
    const session = await live.core.pool.session('stuck')
    await waitFor(
      async () => {
        const raw = await session.callTool('fixture_stats', {}, { operation: 'call' })
        const text = (raw.content as { text: string }[])[0]!.text
        return (JSON.parse(text) as { cancelled: number }).cancelled >= 1
      },
      // On a loaded machine the poll's own calls queue behind other work.
      'the stuck server to see the cancellation',
    )
  })

  it('writes one audit line per call, and one for a server it could not reach', async () => {
    await live.core.services.search.run({
      searchId: 'audited',
      query: 'audit me',
      selection: { fast: ['kb'], down: [] },
    })
    await live.core.services.idle()
    const lines = live.auditLines().filter((l) => l.operation === 'search')
    const fast = lines.filter((l) => l.server === 'fast' && l.tool === 'rag_get_raw_results')
    expect(fast.at(-1)).toMatchObject({ outcome: 'ok', sources: ['kb'], resultCount: 5 })
    const down = lines.filter((l) => l.server === 'down').at(-1)
    expect(down).toMatchObject({ outcome: 'error' })
    expect(down).not.toHaveProperty('tool')
    expect(live.auditText()).not.toMatch(/audit me/)
  })
})
