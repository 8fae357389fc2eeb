import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import {
  startCore,
  startHttpFixture,
  whenState,
  type LiveCore,
  type Started,
} from '#test/support/core/live'

/**
 * When a fan-out's calls reach the wire, seen from the console's side of real loopback HTTP
 * servers: undici announces each request as its headers are written to the socket.
 */
let live: LiveCore
let servers: Record<string, Started>
const FAST = ['fast-a', 'fast-b', 'fast-c', 'fast-d']

beforeAll(async () => {
  const started = await Promise.all(
    ['slow', ...FAST].map((name) =>
      startHttpFixture(['--name', name, '--delay', name === 'slow' ? '300' : '0']),
    ),
  )
  servers = Object.fromEntries(
    started.map((server, i) => [i === 0 ? 'slow' : FAST[i - 1]!, server]),
  )
  live = await startCore(
    Object.fromEntries(
      Object.entries(servers).map(([id, server]) => [
        id,
        { url: server.url, dialect: 'rag-tools-v1', timeoutMs: 5_000 },
      ]),
    ),
  )
  await whenState(live.core, Object.keys(servers))
})

afterAll(async () => {
  await live?.close()
  await Promise.all(Object.values(servers ?? {}).map((server) => server.stop()))
})

/**
 * Every POST handed to undici and every request written, in order (a fan-out's protocol log
 * entries are worked out after it answered, so they cannot tell when a call left).
 */
function recordSends(): { events: string[]; stop(): void } {
  const events: string[] = []
  const server = (origin: unknown) =>
    Object.keys(servers).find((id) => new URL(servers[id]!.url).origin === String(origin))
  const on = (what: string) => (message: unknown) => {
    const { request } = message as { request: { origin?: unknown; method?: string } }
    const id = server(request.origin)
    if (id && request.method === 'POST') events.push(`${what} ${id}`)
  }
  const handed = on('handed')
  const written = on('written')
  subscribe('undici:request:create', handed)
  subscribe('undici:client:sendHeaders', written)
  return {
    events,
    stop() {
      unsubscribe('undici:request:create', handed)
      unsubscribe('undici:client:sendHeaders', written)
    },
  }
}

describe('fan-out on the wire', () => {
  it("writes the slowest server's request before it hands the other servers' calls over", async () => {
    const selection = Object.fromEntries(Object.keys(servers).map((id) => [id, []]))
    await live.core.services.search.run({ searchId: 'learn', query: 'vpn', selection })
    const sends = recordSends()
    try {
      const result = await live.core.services.search.run({
        searchId: 'wire-order',
        query: 'vpn',
        selection,
      })
      expect(result.servers.every((server) => server.ok)).toBe(true)
      const { events } = sends
      expect(events[0]).toBe('handed slow')
      // Its latency runs while the others are still being prepared.
      const slowWritten = events.indexOf('written slow')
      expect(slowWritten).toBeGreaterThan(0)
      expect(events.slice(0, slowWritten).filter((event) => event !== 'handed slow')).toEqual([])
      for (const id of FAST) expect(events).toContain(`written ${id}`)
    } finally {
      sends.stop()
    }
  })
})

describe("a fan-out's protocol log", () => {
  it('is worked out after the search answered, with the times its messages passed', async () => {
    const selection = Object.fromEntries(Object.keys(servers).map((id) => [id, []]))
    // The searches of the test before are worked out a turn after they answered: not here.
    await new Promise((resolve) => setImmediate(resolve))
    const seen: { server: string; entry: ProtocolEntry; answered: boolean }[] = []
    let answered = false
    const off = live.core.pool.onProtocol((server, entry) => {
      if (entry.method === 'tools/call' || entry.kind === 'response') {
        seen.push({ server, entry, answered })
      }
    })
    // When each server's reply reached the console: its response's headers, as undici saw them.
    const arrived: Record<string, number> = {}
    const onHeaders = (message: unknown): void => {
      const { request } = message as { request: { origin?: unknown; method?: string } }
      const id = Object.keys(servers).find(
        (key) => new URL(servers[key]!.url).origin === String(request.origin),
      )
      if (id && request.method === 'POST') arrived[id] ??= Date.now()
    }
    subscribe('undici:request:headers', onHeaders)
    let answeredAt: number
    try {
      const result = await live.core.services.search.run({
        searchId: 'deferred-log',
        query: 'vpn',
        selection,
      })
      answered = true
      answeredAt = Date.now()
      expect(result.servers.every((server) => server.ok)).toBe(true)
      expect(seen).toEqual([])
      // The clock moves on before the entries are worked out (the next turn), so an entry that
      // took the time it was worked out would be later than the answer.
      while (Date.now() <= answeredAt);
      await new Promise((resolve) => setImmediate(resolve))
      expect(seen.length).toBeGreaterThan(0)
      expect(seen.every((announced) => announced.answered)).toBe(true)
    } finally {
      off()
      unsubscribe('undici:request:headers', onHeaders)
    }
    const reply = (server: string) =>
      live.core.pool
        .protocol(server)
        .list()
        .findLast((entry) => entry.kind === 'response')!
    // Each reply keeps the time it came: once its response arrived, before the search answered.
    for (const id of Object.keys(servers)) {
      expect(reply(id).at, id).toBeGreaterThanOrEqual(arrived[id]!)
      expect(reply(id).at, id).toBeLessThanOrEqual(answeredAt)
      const full = live.core.pool.protocol(id).entry(reply(id).seq)!.full!
      expect(JSON.parse(full)).toMatchObject({ jsonrpc: '2.0', result: expect.any(Object) })
    }
    // The slow server waits 300 ms before it answers: its reply's time says so (timers may fire
    // a millisecond early).
    expect(reply('slow').durationMs).toBeGreaterThanOrEqual(299)
  })
})
