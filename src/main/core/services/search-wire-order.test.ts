import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCore, startHttpFixture, whenState, type LiveCore, type Started } from './testing/live'

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

/** Every `tools/call` handed to a transport and every request written, in order. */
function recordSends(): { events: string[]; stop(): void } {
  const events: string[] = []
  const server = (origin: unknown) =>
    Object.keys(servers).find((id) => new URL(servers[id]!.url).origin === String(origin))
  const written = (message: unknown) => {
    const { request } = message as { request: { origin?: unknown } }
    const id = server(request.origin)
    if (id) events.push(`written ${id}`)
  }
  subscribe('undici:client:sendHeaders', written)
  const off = live.core.pool.onProtocol((id, entry) => {
    // An HTTP request is announced again once its exchange is known: count it once.
    if (entry.direction === 'out' && entry.method === 'tools/call' && !entry.httpStatus) {
      events.push(`handed ${id}`)
    }
  })
  return {
    events,
    stop() {
      off()
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
