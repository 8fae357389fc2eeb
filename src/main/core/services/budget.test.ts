import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import { mapBounded, withBudget } from './budget'

/** Work that ends only when its signal aborts, remembering why. */
function untilAborted(seen: { reason?: unknown }) {
  return (signal: AbortSignal) =>
    new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => {
        seen.reason = signal.reason
        reject(signal.reason)
      })
    })
}

describe('withBudget', () => {
  it('returns the work value when it answers in time', async () => {
    expect(await withBudget('kb', 1_000, undefined, async () => 42)).toBe(42)
  })

  it('fails with timeout and aborts the work when the budget runs out', async () => {
    const seen: { reason?: unknown } = {}
    const failure = await withBudget('kb', 30, undefined, untilAborted(seen)).catch((e) => e)
    expect(failure).toBeInstanceOf(ConsoleError)
    expect(failure).toMatchObject({ code: 'timeout', server: 'kb' })
    expect((failure as Error).message).toMatch(/did not answer within 30 ms/)
    expect(seen.reason).toBe(failure)
  })

  it('fails with cancelled and aborts the work when the operation is cancelled', async () => {
    const controller = new AbortController()
    const seen: { reason?: unknown } = {}
    const pending = withBudget('kb', 10_000, controller.signal, untilAborted(seen))
    controller.abort()
    await expect(pending).rejects.toMatchObject({ code: 'cancelled', server: 'kb' })
    expect(seen.reason).toMatchObject({ code: 'cancelled' })
  })

  it('does not start work for an operation already cancelled', async () => {
    const controller = new AbortController()
    controller.abort()
    let started = false
    await expect(
      withBudget('kb', 1_000, controller.signal, async () => {
        started = true
      }),
    ).rejects.toMatchObject({ code: 'cancelled' })
    expect(started).toBe(false)
  })
})

describe('mapBounded', () => {
  it('keeps at most `limit` tasks in flight and the results in input order', async () => {
    let inFlight = 0
    let peak = 0
    const finished: number[] = []
    const results = await mapBounded(
      [30, 5, 20, 1, 10],
      2,
      async (ms) => {
        inFlight++
        peak = Math.max(peak, inFlight)
        await new Promise((resolve) => setTimeout(resolve, ms))
        inFlight--
        return ms * 2
      },
      (_, index) => finished.push(index),
    )
    expect(peak).toBe(2)
    expect(results).toEqual([60, 10, 40, 2, 20])
    expect(finished).toHaveLength(5)
    expect(finished[0]).toBe(1)
  })
})
