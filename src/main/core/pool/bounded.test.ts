import { describe, expect, it } from 'vitest'
import { runBounded } from './bounded'
import type { CallContext } from './call-context'
import type { Clock } from './clock'

/** A clock whose time and timers move only when told to. */
function steppedClock(): Clock & { advance(ms: number): void } {
  let now = 0
  let next = 0
  const timers = new Map<number, { at: number; fn: () => void }>()
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      timers.set(++next, { at: now + ms, fn })
      return next
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    advance(ms) {
      now += ms
      for (const [id, timer] of [...timers]) {
        if (timer.at > now) continue
        timers.delete(id)
        timer.fn()
      }
    },
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve))

function boundedCall(timeoutMs: number) {
  const clock = steppedClock()
  const context: CallContext = { serverId: 's', operation: 'call', requestIds: [] }
  let outcome: 'pending' | 'done' | 'timed out' = 'pending'
  let finish: (value: string) => void = () => {}
  runBounded(context, timeoutMs, undefined, clock, () => new Promise<string>((r) => (finish = r)))
    .then(() => (outcome = 'done'))
    .catch(() => (outcome = context.timedOut ? 'timed out' : 'pending'))
  return { clock, context, outcome: () => outcome, finish: (v: string) => finish(v) }
}

describe('runBounded', () => {
  it('times a call out at its deadline', async () => {
    const call = boundedCall(100)
    call.clock.advance(99)
    await flush()
    expect(call.outcome()).toBe('pending')
    call.clock.advance(1)
    await flush()
    expect(call.outcome()).toBe('timed out')
  })

  it('stops the deadline while held and gives back the time that was left', async () => {
    const call = boundedCall(100)
    call.clock.advance(60)
    const release = call.context.hold?.()
    expect(release).toBeTypeOf('function')
    call.clock.advance(10_000)
    await flush()
    expect(call.outcome()).toBe('pending')
    release?.()
    call.clock.advance(39)
    await flush()
    expect(call.outcome()).toBe('pending')
    call.clock.advance(1)
    await flush()
    expect(call.outcome()).toBe('timed out')
  })

  it('keeps the deadline stopped until the last of overlapping holds ends', async () => {
    const call = boundedCall(100)
    const first = call.context.hold?.()
    const second = call.context.hold?.()
    first?.()
    first?.() // a second release of the same hold changes nothing
    call.clock.advance(500)
    await flush()
    expect(call.outcome()).toBe('pending')
    second?.()
    call.clock.advance(100)
    await flush()
    expect(call.outcome()).toBe('timed out')
  })

  it('settles a held call that finishes', async () => {
    const call = boundedCall(100)
    const release = call.context.hold?.()
    call.finish('ok')
    await flush()
    expect(call.outcome()).toBe('done')
    release?.()
    call.clock.advance(1_000)
    await flush()
    expect(call.outcome()).toBe('done')
  })
})
