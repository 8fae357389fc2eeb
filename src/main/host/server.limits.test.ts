import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { createHandlers } from '#core/api/handlers'
import { MAX_IN_FLIGHT } from './server'
import {
  closed,
  connect,
  connectStalled,
  expectServing,
  failOnUncaught,
  request,
  startLiveHost,
  unansweredKeychain,
  type LiveHost,
} from '#test/support/host/live-host'

/**
 * The host's limits per socket, against a live host: what it queues for a client that does
 * not read, how many requests a client may have in flight, and replies that cannot be sent.
 */

const keychain = unansweredKeychain()
/** The host under test queues this much for a socket that does not read (a few MB keeps it quick). */
const LIMIT = 8 * 1024 * 1024
const cyclic: Record<string, unknown> = { name: 'cycle' }
cyclic.self = cyclic

let live: LiveHost
beforeAll(async () => {
  live = await startLiveHost({
    openEntry: keychain.openEntry,
    maxBufferedBytes: LIMIT,
    // Handlers with a bug: replies that JSON cannot carry.
    handlers: (core) => ({
      ...createHandlers(core),
      'pool:status': () => [{ id: 'big', started: 1n }] as never,
      'pool:health': () => [cyclic] as never,
    }),
  })
})

afterAll(async () => {
  keychain.answer()
  await live.close()
})

failOnUncaught()

/** Resolves with the `n`th event the socket receives. */
function events(ws: WebSocket): { next(): Promise<void>; count(): number } {
  let count = 0
  let waiting: (() => void) | undefined
  ws.on('message', (data) => {
    if ((JSON.parse(data.toString()) as { event?: unknown }).event === undefined) return
    count += 1
    waiting?.()
  })
  return {
    next() {
      const target = count + 1
      return new Promise((resolve) => {
        waiting = () => {
          if (count >= target) resolve()
        }
      })
    },
    count: () => count,
  }
}

describe('browser host limits', () => {
  it('delivers a 50,000-hit search (about 60 MB of progress events and reply) to a page that reads', async () => {
    // The events of one search are emitted faster than loopback carries them: the backlog of a
    // page that reads all the while still grows far past a few megabytes.
    const host = await startLiveHost()
    const reader = await connect(host.host)
    const seen = events(reader)
    const close = closed(reader)
    const message = 'h'.repeat(2 * 1024 * 1024)
    const total = 30
    for (let at = 0; at < total; at += 1) {
      host.core.events.emit('app:notice', { level: 'info', message, at })
    }
    while (seen.count() < total) {
      const outcome = await Promise.race([seen.next().then(() => 'event'), close])
      if (outcome !== 'event') throw new Error(`closed: ${JSON.stringify(outcome)}`)
    }
    expect(seen.count()).toBe(total)
    reader.close()
    await host.close()
  })

  it('closes a socket that stops reading with 1013 once its backlog passes the limit; other sockets get every event', async () => {
    const bystander = await connect(live.host)
    const seen = events(bystander)
    const stalled = await connectStalled(live.host)
    const stalledSeen = events(stalled.ws)
    // Enough to fill the kernel's buffers on both ends and then the host's limit twice over.
    const message = 'n'.repeat(128 * 1024)
    const total = Math.ceil((3 * LIMIT) / message.length) + 64
    for (let at = 0; at < total; at += 1) {
      const delivered = seen.next()
      live.core.events.emit('app:notice', { level: 'info', message, at })
      await delivered
    }
    expect(seen.count()).toBe(total)

    // Once it reads again, it gets what was queued before the limit, then the close.
    const readAll = new Promise<string>((resolve) => {
      stalled.ws.on('message', () => {
        if (stalledSeen.count() === total) resolve('read every event')
      })
    })
    const close = closed(stalled.ws)
    stalled.resume()
    expect(await Promise.race([close, readAll])).toEqual({
      code: 1013,
      reason: expect.stringContaining('too slow'),
    })
    expect(stalledSeen.count()).toBeLessThan(total)

    // The host had at most the limit and one event queued when it gave up on the socket.
    const warning = live.logLines().find((line) => line.includes('does not read'))
    const { bufferedBytes } = JSON.parse(warning ?? '{}') as { bufferedBytes?: number }
    expect(bufferedBytes).toBeGreaterThan(LIMIT)
    expect(bufferedBytes).toBeLessThanOrEqual(LIMIT + message.length + 1024)
    expect(await request(bystander, 'app:info')).toMatchObject({ ok: true })
    bystander.close()
  })

  it(`answers a request beyond ${MAX_IN_FLIGHT} in flight on one socket at once with rate_limited and its id`, async () => {
    const ws = await connect(live.host)
    const replies = new Map<number, unknown>()
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; response?: unknown }
      if (message.id !== undefined) replies.set(message.id, message.response)
    })
    // Each waits on a keychain whose unlock prompt nobody answers.
    for (let id = 1; id <= MAX_IN_FLIGHT; id += 1) {
      const body = { server: 'docs', name: `key${id}`, value: `value-${id}-of-the-secret` }
      ws.send(JSON.stringify({ id, channel: 'secrets:set', request: body }))
    }
    expect(await request(ws, 'app:info')).toEqual({
      ok: false,
      error: {
        code: 'rate_limited',
        origin: 'local',
        message: expect.stringContaining(`${MAX_IN_FLIGHT} requests in flight`),
      },
    })
    expect(replies.size).toBe(1)

    // Other sockets have their own allowance.
    const other = await connect(live.host)
    expect(await request(other, 'app:info')).toMatchObject({ ok: true })
    other.close()

    const answered = new Promise<void>((resolve) => {
      ws.on('message', () => {
        if (replies.size === MAX_IN_FLIGHT + 1) resolve()
      })
    })
    keychain.answer()
    await answered
    for (let id = 1; id <= MAX_IN_FLIGHT; id += 1) {
      expect(replies.get(id)).toMatchObject({ ok: true, value: { present: true } })
    }
    expect(await request(ws, 'app:info')).toMatchObject({ ok: true })
    ws.close()
  })

  it.each([
    ['a BigInt', 'pool:status'],
    ['a cycle', 'pool:health'],
  ])(
    'answers a request whose reply holds %s with an internal error carrying its id',
    async (_what, channel) => {
      const ws = await connect(live.host)
      expect(await request(ws, channel)).toEqual({
        ok: false,
        error: {
          code: 'internal',
          message: expect.stringContaining(`${channel}: the host could not send its reply`),
        },
      })
      expect(live.logLines().some((line) => line.includes(channel))).toBe(true)
      // The socket lives on.
      expect(await request(ws, 'app:info')).toMatchObject({ ok: true })
      ws.close()
      await expectServing(live.host)
    },
  )
})
