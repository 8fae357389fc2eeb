import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { createRedactor } from '../secrets/redactor'
import { LogBudget, LogDeferral, MAX_DEFER_MS, PREVIEW_CHARS, ProtocolLog } from './protocol-log'

const request = (id: number, text = 'x') =>
  ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text } },
  }) as const

describe('ProtocolLog', () => {
  it('keeps the newest entries only, with increasing sequence numbers', () => {
    const log = new ProtocolLog({ max: 3, now: () => 0 })
    for (let id = 1; id <= 5; id++) log.out(request(id))
    expect(log.list().map((e) => [e.seq, e.id])).toEqual([
      [2, 3],
      [3, 4],
      [4, 5],
    ])
    expect(log.list(3).map((e) => e.seq)).toEqual([4])
  })

  it('measures a message in bytes of its JSON', () => {
    const log = new ProtocolLog({ max: 10, now: () => 0 })
    const message = request(1, 'é€')
    log.out(message)
    expect(log.list()[0]!.size).toBe(Buffer.byteLength(JSON.stringify(message)))
  })

  it('cuts large messages and returns the whole text while it is kept', () => {
    const log = new ProtocolLog({ max: 10, now: () => 0 })
    log.out(request(1, 'y'.repeat(PREVIEW_CHARS * 2)))
    const [entry] = log.list()
    expect(entry).toMatchObject({ truncated: true, text: expect.any(String) })
    expect(entry!.text).toHaveLength(PREVIEW_CHARS)
    expect(JSON.parse(log.entry(entry!.seq)!.full!)).toMatchObject({ id: 1 })
  })

  it('times a reply from its request and attaches the HTTP exchange to the request', () => {
    let now = 100
    const log = new ProtocolLog({ max: 10, now: () => now, redactor: createRedactor() })
    log.out(request(7))
    log.http({ id: 7, status: 200, headers: { 'X-API-Key': 'k-0123456789', 'x-user-id': 'bob' } })
    now = 142
    log.in({ jsonrpc: '2.0', id: 7, result: { content: [] } })
    const [sent, reply] = log.list()
    expect(sent).toMatchObject({
      httpStatus: 200,
      headers: { 'X-API-Key': '[redacted]', 'x-user-id': 'bob' },
    })
    expect(reply).toMatchObject({ kind: 'response', durationMs: 42 })
  })

  it('names the console operation of a request and of its reply', () => {
    const log = new ProtocolLog({ max: 10, now: () => 0 })
    log.out(request(7), 'workbench')
    log.out(request(8), 'doctor')
    log.in({ jsonrpc: '2.0', id: 8, result: {} })
    log.in({ jsonrpc: '2.0', id: 7, result: {} })
    log.out({ jsonrpc: '2.0', method: 'notifications/initialized' })
    expect(log.list().map((e) => [e.id, e.operation])).toEqual([
      [7, 'workbench'],
      [8, 'doctor'],
      [8, 'doctor'],
      [7, 'workbench'],
      [undefined, undefined],
    ])
  })

  it('forgets when unanswered requests went out once they leave the ring', () => {
    // A server that never replies (timeouts, cancelled calls) must not grow the log for ever.
    let now = 0
    const log = new ProtocolLog({ max: 3, now: () => now })
    for (let id = 1; id <= 5; id++) log.out(request(id))
    now = 10
    log.in({ jsonrpc: '2.0', id: 1, result: {} })
    log.in({ jsonrpc: '2.0', id: 5, result: {} })
    const replies = log.list().filter((e) => e.direction === 'in')
    expect(replies.map((e) => [e.id, e.durationMs])).toEqual([
      [1, undefined],
      [5, 10],
    ])
  })

  it('forgets unanswered requests when cleared', () => {
    const log = new ProtocolLog({ max: 10, now: () => 0 })
    log.out(request(1))
    log.clear()
    log.in({ jsonrpc: '2.0', id: 1, result: {} })
    expect(log.list()[0]!.durationMs).toBeUndefined()
  })

  it('announces a request again once its HTTP status and headers arrive', () => {
    // The request is announced when sent; the HTTP exchange completes later.
    const announced: { seq: number; httpStatus?: number | undefined }[] = []
    const log = new ProtocolLog({
      max: 10,
      now: () => 0,
      onEntry: (entry) => announced.push({ seq: entry.seq, httpStatus: entry.httpStatus }),
    })
    log.out(request(3))
    log.http({ id: 3, status: 200, headers: { 'x-user-id': 'bob' } })
    expect(announced).toEqual([
      { seq: 0, httpStatus: undefined },
      { seq: 0, httpStatus: 200 },
    ])
  })

  it('redacts known secrets in messages and stderr lines', () => {
    const redactor = createRedactor()
    redactor.add('super-secret-token')
    const log = new ProtocolLog({ max: 10, now: () => 0, redactor })
    log.out(request(1, 'super-secret-token'))
    log.stderr('token is super-secret-token')
    expect(JSON.stringify(log.list())).not.toContain('super-secret-token')
  })

  it('walks a message for secrets only when its text could hold one', () => {
    const redactor = createRedactor()
    redactor.add('k-0123456789')
    const walks = vi.spyOn(redactor, 'redact')
    const log = new ProtocolLog({ max: 10, now: () => 0, redactor })
    const hits = { hits: Array.from({ length: 10 }, (_, n) => ({ id: n, text: 'vpn setup' })) }
    log.in({ jsonrpc: '2.0', id: 1, result: hits })
    expect(walks).not.toHaveBeenCalled()
    log.in({ jsonrpc: '2.0', id: 2, result: { note: 'key k-0123456789' } })
    log.in({ jsonrpc: '2.0', id: 3, result: { headers: { Cookie: 'session=abc' } } })
    log.in({ jsonrpc: '2.0', id: 4, result: { text: 'Authorization:\tBearer abcdefgh12345678' } })
    log.in({ jsonrpc: '2.0', id: 5, result: { [`api\u212Aey`]: 'short' } })
    expect(walks).toHaveBeenCalledTimes(4)
    const text = JSON.stringify(log.list())
    for (const secret of ['k-0123456789', 'session=abc', 'abcdefgh12345678', 'short']) {
      expect(text).not.toContain(secret)
    }
  })
})

/** A clock whose one kind of timer fires when the test says. */
function manualClock() {
  const timers = new Map<number, { fn: () => void; ms: number }>()
  let next = 0
  return {
    timers,
    setTimeout: (fn: () => void, ms: number) => {
      timers.set(++next, { fn, ms })
      return next
    },
    clearTimeout: (handle: unknown) => void timers.delete(handle as number),
    fire() {
      const due = [...timers.values()]
      timers.clear()
      for (const timer of due) timer.fn()
    },
  }
}

const afterImmediate = () => new Promise((resolve) => setImmediate(resolve))

describe('LogDeferral', () => {
  function held(max = 10) {
    let now = 100
    const clock = manualClock()
    const deferral = new LogDeferral(clock)
    const redactor = createRedactor()
    redactor.add('k-0123456789')
    const redactJson = vi.spyOn(redactor, 'redactJson')
    const announced: number[] = []
    const log = new ProtocolLog({
      max,
      now: () => now,
      redactor,
      deferral,
      onEntry: (entry) => announced.push(entry.seq),
    })
    return { log, deferral, clock, redactJson, announced, tick: (ms: number) => (now += ms) }
  }

  it('works out no entry while held, then every one, in order, once released', async () => {
    const { log, deferral, redactJson, announced, tick } = held()
    const release = deferral.hold()
    log.out(request(1, 'key k-0123456789'))
    log.http({ id: 1, status: 200, headers: { 'X-API-Key': 'k-0123456789' } })
    tick(30)
    log.stderr('working on k-0123456789')
    tick(12)
    log.in({ jsonrpc: '2.0', id: 1, result: { content: [] } })
    expect(redactJson).not.toHaveBeenCalled()
    expect(announced).toEqual([])
    release()
    // Released, the operation's caller gets its answer first: entries follow a turn later.
    expect(announced).toEqual([])
    await afterImmediate()
    expect(redactJson).toHaveBeenCalledTimes(2)
    const entries = log.list()
    expect(entries.map((e) => [e.seq, e.kind, e.at])).toEqual([
      [0, 'request', 100],
      [1, 'stderr', 130],
      [2, 'response', 142],
    ])
    expect(entries[0]).toMatchObject({ httpStatus: 200, headers: { 'X-API-Key': '[redacted]' } })
    expect(entries[2]!.durationMs).toBe(42)
    expect(JSON.stringify(entries)).not.toContain('k-0123456789')
    // The request was announced again with its HTTP exchange, as without a hold.
    expect(announced).toEqual([0, 0, 1, 2])
  })

  it('works out what came before each release while another hold is still on', async () => {
    // Operations side by side (an evaluation's searches): each one's end is a moment to work
    // out what waits, or under steady load messages would wait for the timer and age in the heap.
    const { log, deferral, clock, announced } = held()
    const first = deferral.hold()
    const second = deferral.hold()
    log.out(request(1))
    first()
    // Its caller gets its answer first.
    expect(announced).toEqual([])
    await afterImmediate()
    expect(announced).toEqual([0])
    expect(clock.timers.size).toBe(0)
    // The second operation still runs: its next message waits.
    log.out(request(2))
    first()
    await afterImmediate()
    expect(announced).toEqual([0])
    second()
    await afterImmediate()
    expect(announced).toEqual([0, 1])
    // Not held any more: the next message is worked out the turn after, with no timer.
    log.out(request(3))
    expect(announced).toEqual([0, 1])
    expect(clock.timers.size).toBe(0)
    await afterImmediate()
    expect(announced).toEqual([0, 1, 2])
  })

  it('without a hold, works a message out the turn after it passed, after its caller', async () => {
    // A single call (the Workbench, the CLI): its caller continues, and sends its next
    // request, before the console spends time on the log.
    const { log, clock, announced, redactJson } = held()
    log.out(request(1, 'key k-0123456789'))
    log.in({ jsonrpc: '2.0', id: 1, result: { content: [] } })
    expect(redactJson).not.toHaveBeenCalled()
    expect(clock.timers.size).toBe(0)
    await Promise.resolve()
    expect(announced).toEqual([])
    await afterImmediate()
    expect(announced).toEqual([0, 1])
    expect(log.list()[1]!.durationMs).toBe(0)
    expect(log.list()[0]!.text).not.toContain('k-0123456789')
  })

  it('works out what passed before a hold in the turn after, and keeps what the hold holds', async () => {
    const { log, deferral, clock, announced } = held()
    log.out(request(1))
    const release = deferral.hold()
    log.out(request(2))
    await afterImmediate()
    expect(announced).toEqual([0])
    expect(clock.timers.size).toBe(1)
    release()
    await afterImmediate()
    expect(announced).toEqual([0, 1])
  })

  it("works an operation's entries out after it even when the next one starts at once", async () => {
    // Back-to-back operations: the next hold starts before the turn after the first release.
    const { log, deferral, clock, announced } = held()
    const first = deferral.hold()
    log.out(request(1))
    first()
    const second = deferral.hold()
    log.out(request(2))
    await afterImmediate()
    // The first operation's message is worked out; the second's still waits, under a timer of
    // its own (the first's would have fired in the middle of the second operation).
    expect(announced).toEqual([0])
    expect(clock.timers.size).toBe(1)
    second()
    await afterImmediate()
    expect(announced).toEqual([0, 1])
    expect(clock.timers.size).toBe(0)
  })

  it('gives a reader everything so far while still held', () => {
    const { log, deferral } = held()
    const release = deferral.hold()
    log.out(request(1))
    expect(log.list().map((e) => e.id)).toEqual([1])
    expect(log.entry(0)?.entry.id).toBe(1)
    log.out(request(2))
    expect(log.list(0).map((e) => e.id)).toEqual([2])
    release()
  })

  it(`works entries out after ${MAX_DEFER_MS} ms when a hold lasts`, () => {
    const { log, deferral, clock, announced } = held()
    deferral.hold()
    log.out(request(1))
    log.out(request(2))
    expect([...clock.timers.values()].map((t) => t.ms)).toEqual([MAX_DEFER_MS])
    clock.fire()
    expect(announced).toEqual([0, 1])
    // Still held: the next message waits again, under a new timer.
    log.out(request(3))
    expect(announced).toEqual([0, 1])
    expect(clock.timers.size).toBe(1)
  })

  it('keeps at most a ring of messages waiting', () => {
    const { log, deferral, announced } = held(3)
    deferral.hold()
    for (let id = 1; id <= 7; id++) log.out(request(id))
    expect(announced).toEqual([0, 1, 2, 3, 4, 5])
    expect(log.list().map((e) => e.id)).toEqual([5, 6, 7])
  })

  it('drops waiting messages when cleared, and counts them', async () => {
    const { log, deferral, announced } = held()
    const release = deferral.hold()
    log.out(request(1))
    log.http({ id: 1, status: 200, headers: {} })
    expect(log.clear()).toBe(1)
    release()
    await afterImmediate()
    expect(announced).toEqual([])
    expect(log.list()).toEqual([])
  })
})

describe('LogBudget', () => {
  /** Characters a log keeps: its entries' texts and the whole texts it still has. */
  const kept = (log: ProtocolLog): number =>
    log.list().reduce((sum, entry) => {
      const whole = entry.truncated ? log.entry(entry.seq)!.full : null
      return sum + entry.text.length + (whole?.length ?? 0)
    }, 0)

  it('lets the pool’s oldest entries go, whichever server’s they are, past its limit', () => {
    const budget = new LogBudget(5 * PREVIEW_CHARS)
    const quiet = new ProtocolLog({ max: 100, now: () => 0, budget })
    const busy = new ProtocolLog({ max: 100, now: () => 0, budget })
    // Each message is a little over a preview: its entry keeps a preview and the whole text,
    // ~4,200 characters, so two fit and a third does not.
    const big = (id: number) => request(id, 'z'.repeat(PREVIEW_CHARS))
    quiet.out(big(1))
    expect(budget.used).toBe(kept(quiet))
    busy.out(big(2))
    busy.out(big(3))
    // Over the limit: the quiet server's entry was the pool's oldest.
    expect(quiet.list()).toEqual([])
    expect(busy.list().map((e) => e.id)).toEqual([2, 3])
    expect(budget.used).toBe(kept(busy))
    expect(budget.used).toBeLessThanOrEqual(budget.limit)
    quiet.out(request(4))
    busy.out(big(5))
    expect(quiet.list().map((e) => e.id)).toEqual([4])
    expect(busy.list().map((e) => e.id)).toEqual([3, 5])
    expect(busy.entry(0)).toBeUndefined()
    expect(budget.used).toBe(kept(quiet) + kept(busy))
  })

  it('counts what a log lets go by itself (its ring, its whole-text budget, a clear)', () => {
    const budget = new LogBudget()
    const log = new ProtocolLog({ max: 2, now: () => 0, budget })
    for (let id = 1; id <= 5; id++) log.out(request(id, 'w'.repeat(PREVIEW_CHARS)))
    expect(log.list()).toHaveLength(2)
    expect(budget.used).toBe(kept(log))
    expect(log.clear()).toBe(2)
    expect(budget.used).toBe(0)
  })

  it('keeps its count equal to what the logs keep, and under its limit (property)', () => {
    const size = fc.integer({ min: 0, max: 3 * PREVIEW_CHARS })
    const step = fc.oneof(
      fc.record({ log: fc.nat(2), chars: size }),
      fc.record({ clear: fc.nat(2) }),
    )
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 60 }),
        fc.integer({ min: 1, max: 12 }),
        (steps, n) => {
          const budget = new LogBudget(n * PREVIEW_CHARS)
          const logs = [0, 1, 2].map(() => new ProtocolLog({ max: 5, now: () => 0, budget }))
          let id = 0
          for (const s of steps) {
            if ('clear' in s) logs[s.clear]!.clear()
            else
              logs[s.log]!.in({ jsonrpc: '2.0', id: ++id, result: { text: 'r'.repeat(s.chars) } })
            expect(budget.used).toBe(logs.reduce((sum, log) => sum + kept(log), 0))
            expect(budget.used).toBeLessThanOrEqual(budget.limit)
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
