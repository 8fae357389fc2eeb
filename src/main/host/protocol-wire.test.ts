import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import {
  fixtureEntry,
  startCore,
  startHttpFixture,
  whenState,
  type LiveCore,
  type Started,
} from '#test/support/core/live'
import { waitFor } from '#test/support/process/wait-for'
import type { BrowserHost } from './server'
import {
  closed,
  connect,
  failOnUncaught,
  request,
  startWireHost,
} from '#test/support/host/live-host'
import { SAFETY_NET_MS } from '#test/support/process/limits'

/**
 * Who gets the protocol log's events over the host's WebSocket: only pages that asked for them
 * (a page showing the log), against fixture servers over streamable HTTP and stdio.
 */
let live: LiveCore
let fixture: Started
let host: BrowserHost

beforeAll(async () => {
  fixture = await startHttpFixture(['--name', 'wire', '--hits', '10'])
  live = await startCore({
    a: { url: fixture.url, dialect: 'rag-tools-v1', timeoutMs: SAFETY_NET_MS },
    c: fixtureEntry(['--name', 'local', '--hits', '5']),
  })
  await whenState(live.core, ['a', 'c'])
  host = await startWireHost(live.core)
})

afterAll(async () => {
  await host?.close()
  await live?.close()
  await fixture?.stop()
})

failOnUncaught()

/** One `workbench:protocol` event as a page received it: whose log, and its new entries. */
interface ProtocolEvent {
  server: string
  entries: ProtocolEntry[]
}

/** A page's socket, the protocol events it received so far, and its progress events. */
async function page(): Promise<{ ws: WebSocket; protocol: ProtocolEvent[]; progress: string[] }> {
  const ws = await connect(host)
  const protocol: ProtocolEvent[] = []
  const progress: string[] = []
  ws.on('message', (data) => {
    const { event } = JSON.parse(data.toString()) as {
      event?: {
        name: string
        payload: { entries: ProtocolEntry[]; server: string; searchId: string }
      }
    }
    if (event?.name === 'workbench:protocol') {
      protocol.push({ server: event.payload.server, entries: event.payload.entries })
    }
    if (event?.name === 'search:progress') progress.push(event.payload.searchId)
  })
  return { ws, protocol, progress }
}

/** The servers whose protocol events reached a page. */
const serversOf = (protocol: ProtocolEvent[]): Set<string> =>
  new Set(protocol.map((event) => event.server))

/** One server's entries among a page's protocol events (every server numbers its own log). */
const entriesOf = (protocol: ProtocolEvent[], server: string): ProtocolEntry[] =>
  protocol.filter((event) => event.server === server).flatMap((event) => event.entries)

const subscribe = (ws: WebSocket, events: unknown[]): void =>
  ws.send(JSON.stringify({ subscribe: events }))

let searches = 0
async function search(ws: WebSocket): Promise<string> {
  const searchId = `s${++searches}`
  const response = await request(ws, 'search:run', { searchId, query: 'vpn' })
  expect(response).toMatchObject({ ok: true })
  return searchId
}

/** Resolves once the core has sent its next protocol event (to whichever pages get it). */
function nextProtocolEvent(): Promise<void> {
  return new Promise((resolve) => {
    const stop = live.core.events.on('workbench:protocol', () => {
      stop()
      resolve()
    })
  })
}

describe('protocol log events on the wire', () => {
  it('reach no page that did not subscribe to them, though a search logs many', async () => {
    const quiet = await page()
    const sent = nextProtocolEvent()
    await search(quiet.ws)
    await sent
    // Anything the host sent this page before its reply has arrived by now.
    await request(quiet.ws, 'app:info')
    expect(quiet.protocol).toEqual([])
    quiet.ws.close()
  })

  it('reach a page that subscribed, which fetches the log it missed first', async () => {
    const watching = await page()
    subscribe(watching.ws, ['workbench:protocol'])
    const log = (await request(watching.ws, 'workbench:log', { server: 'a' })) as {
      value: { entries: ProtocolEntry[] }
    }
    expect(log.value.entries.length).toBeGreaterThan(0)
    await search(watching.ws)
    // The log fetched is a's, and each server numbers its own log: only a's events say what
    // came after it. The first of them may complete an entry the page already has (a reply to
    // an earlier search), so wait for the newer ones: this search's call to a.
    const fetched = Math.max(...log.value.entries.map((entry) => entry.seq))
    const newer = () => entriesOf(watching.protocol, 'a').filter((entry) => entry.seq > fetched)
    await waitFor(() => newer().length > 0, "a's entries after the fetched log")
    expect(newer()).toContainEqual(
      expect.objectContaining({ direction: 'out', kind: 'request', method: 'tools/call' }),
    )
    watching.ws.close()
  })

  it('stop once the page unsubscribes, or its socket closes', async () => {
    const leaving = await page()
    const closing = await page()
    subscribe(leaving.ws, ['workbench:protocol'])
    subscribe(closing.ws, ['workbench:protocol'])
    await search(leaving.ws)
    await waitFor(() => leaving.protocol.length > 0, 'protocol events')

    subscribe(leaving.ws, [])
    closing.ws.close()
    await closed(closing.ws)
    const before = leaving.protocol.length
    const sent = nextProtocolEvent()
    await search(leaving.ws)
    await sent
    await request(leaving.ws, 'app:info')
    expect(leaving.protocol.length).toBe(before)
    leaving.ws.close()
  })

  it("reach a page that asked for one server's log with that server's only", async () => {
    const one = await page()
    subscribe(one.ws, [{ event: 'workbench:protocol', server: 'c' }])
    await request(one.ws, 'app:info')
    // Both servers answer the search: their replies are the last protocol events it causes.
    await search(one.ws)
    await waitFor(() => serversOf(one.protocol).has('c'), "c's protocol events")
    const sent = nextProtocolEvent()
    await search(one.ws)
    await sent
    await request(one.ws, 'app:info')
    expect([...serversOf(one.protocol)]).toEqual(['c'])
    one.ws.close()
  })

  it("send a search's progress only to the page that ran it", async () => {
    const running = await page()
    const other = await page()
    const searchId = await search(running.ws)
    await request(other.ws, 'app:info')
    // Both servers reported on the page that asked; the other page heard nothing of it.
    expect(running.progress).toEqual([searchId, searchId])
    expect(other.progress).toEqual([])
    running.ws.close()
    other.ws.close()
  })

  it.each([
    ['not a list', { subscribe: 'workbench:protocol' }],
    ['a server that is not a name', { subscribe: [{ event: 'workbench:protocol', server: 7 }] }],
    [
      'a scope with more fields',
      { subscribe: [{ event: 'workbench:protocol', server: 'a', x: 1 }] },
    ],
    ['an event that is always sent', { subscribe: ['search:progress'] }],
    ['an unknown event', { subscribe: ['nope'] }],
  ])('closes a socket whose subscription names %s with 1003 and says why', async (_, body) => {
    const { ws } = await page()
    const close = closed(ws)
    ws.send(JSON.stringify(body))
    expect(await close).toEqual({
      code: 1003,
      reason: expect.stringContaining(
        '{"subscribe": [{"event": "workbench:protocol", "server": ID}]}',
      ),
    })
    const other = await page()
    expect(await request(other.ws, 'app:info')).toMatchObject({ ok: true })
    other.ws.close()
  })
})
