import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import {
  frameSequences,
  messages,
  upgradeRequests,
  type Message,
} from '#test/support/host/hostile-input'
import {
  connect,
  expectServing,
  rawExchange,
  recordUncaught,
  startLiveHost,
  statusOf,
  upgradeRequest,
  type LiveHost,
} from '#test/support/host/live-host'

/**
 * A bounded fuzz of the browser host's boundary, against a live host on a free port: random
 * upgrade requests over raw TCP, random messages from a client holding the token, and random
 * raw frames. After every batch the host must still serve the page and answer a call on a
 * fresh socket, and nothing may have been thrown uncaught.
 */

const BATCHES = 8
const batchOf = <T>(items: fc.Arbitrary<T>): fc.Arbitrary<T[]> =>
  fc.array(items, { minLength: 15, maxLength: 30 })

let live: LiveHost
let uncaught: ReturnType<typeof recordUncaught>
const tried = { upgrades: 0, messages: 0, frameSequences: 0 }

beforeAll(async () => {
  live = await startLiveHost()
  uncaught = recordUncaught()
})

afterAll(async () => {
  uncaught.stop()
  await live.close()
  console.info(
    `host fuzz: ${tried.upgrades} upgrade requests, ${tried.messages} messages, ` +
      `${tried.frameSequences} frame sequences; the host survived all of them`,
  )
})

async function expectAlive(): Promise<void> {
  await expectServing(live.host)
  expect(uncaught.errors).toEqual([])
}

/** True when the raw request names our path with this launch's token and our origin. */
function authorised(request: Buffer): boolean {
  const { host } = live
  const [line = '', ...headers] = request.toString('latin1').split('\r\n')
  const target = line.split(' ')[1] ?? ''
  let url: URL
  try {
    url = new URL(target, host.origin)
  } catch {
    return false
  }
  return (
    url.pathname === '/ipc' &&
    url.searchParams.get('token') === host.token &&
    headers.filter((h) => /^origin:/i.test(h)).join() === `Origin: ${host.origin}`
  )
}

/** What the host must do with a message: answer it by id, or close with 1003. */
function expectedId(message: Message): number | 'close' {
  if (!('text' in message)) return 'close'
  let value: unknown
  try {
    value = JSON.parse(message.text)
  } catch {
    return 'close'
  }
  const id = (value as { id?: unknown } | null)?.id
  return typeof value === 'object' && !Array.isArray(value) && typeof id === 'number' ? id : 'close'
}

type Outcome = { reply: { id: number; response: unknown } } | { close: number }

function outcomeOf(ws: WebSocket): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no reply and no close')), 10_000)
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; response?: unknown }
      if (message.id === undefined) return
      clearTimeout(timer)
      resolve({ reply: { id: message.id, response: message.response } })
    })
    ws.on('close', (code) => {
      clearTimeout(timer)
      resolve({ close: code })
    })
  })
}

async function sendOne(message: Message): Promise<void> {
  const ws = await connect(live.host)
  const outcome = outcomeOf(ws)
  if ('text' in message) ws.send(message.text)
  else ws.send(message.binary, { binary: true })
  const expected = expectedId(message)
  const got = await outcome
  ws.close()
  if (expected === 'close') {
    expect(got).toEqual({ close: 1003 })
    return
  }
  expect(got).toMatchObject({ reply: { id: expected } })
  const { response } = (got as { reply: { response: Record<string, unknown> } }).reply
  expect(typeof response.ok).toBe('boolean')
  if (!response.ok) {
    expect(response.error).toEqual(
      expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
    )
  }
}

describe('browser host fuzz', () => {
  it('answers random upgrade requests with a 1xx-4xx or a closed connection, 101 only with the token and our origin', async () => {
    await fc.assert(
      fc.asyncProperty(batchOf(upgradeRequests(live.host)), async (batch) => {
        const answers = await Promise.all(batch.map((bytes) => rawExchange(live.host.port, bytes)))
        batch.forEach((request, i) => {
          const status = statusOf(answers[i]!)
          if (status !== null) expect(status).toBeLessThan(500)
          if (status === 101) expect(authorised(request)).toBe(true)
        })
        tried.upgrades += batch.length
        await expectAlive()
      }),
      { numRuns: BATCHES },
    )
  })

  it('answers random messages from a client with the token by id, or closes with 1003', async () => {
    await fc.assert(
      fc.asyncProperty(batchOf(messages), async (batch) => {
        await Promise.all(batch.map(sendOne))
        tried.messages += batch.length
        await expectAlive()
      }),
      { numRuns: BATCHES },
    )
  })

  it('closes only the connection that writes random or broken frames', async () => {
    const handshake = Buffer.from(upgradeRequest(live.host, `/ipc?token=${live.host.token}`))
    await fc.assert(
      fc.asyncProperty(batchOf(frameSequences), async (batch) => {
        const bystander = await connect(live.host)
        const answers = await Promise.all(
          batch.map((frames) => rawExchange(live.host.port, Buffer.concat([handshake, frames]))),
        )
        for (const answer of answers) expect(statusOf(answer)).toBe(101)
        expect(bystander.readyState).toBe(bystander.OPEN)
        bystander.close()
        tried.frameSequences += batch.length
        await expectAlive()
      }),
      { numRuns: BATCHES },
    )
  })
})
