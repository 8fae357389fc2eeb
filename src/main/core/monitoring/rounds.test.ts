import { afterEach, expect, it, vi } from 'vitest'
import type { PoolServerStatus } from '#shared/ipc/servers'
import { CallObservers } from '../pool/call-observer'
import { ProbeRounds } from './rounds'

/** A monitor's rounds: every server it should check, checked since the last round ended. */
let rounds: ProbeRounds | undefined

afterEach(() => {
  rounds?.dispose()
  vi.useRealTimers()
})

const calls = new CallObservers()
const status = (server: string, state: string): PoolServerStatus =>
  ({ server, status: { state, since: 0 } }) as PoolServerStatus
const checked = (server: string) =>
  calls.emit({
    server,
    operation: 'ping',
    method: 'ping',
    transport: 'http',
    traffic: 'diagnostic',
    probe: true,
    ms: 1,
    endedAt: 0,
  })

it('ends a round at the first tick after every server to check was checked', () => {
  vi.useFakeTimers({ now: 1_000 })
  let statuses = [status('a', 'ready'), status('b', 'down'), status('off', 'disabled')]
  rounds = new ProbeRounds({ calls, statuses: () => statuses, intervalMs: 100 })
  vi.advanceTimersByTime(100)
  expect(rounds.lastAt).toBeUndefined()
  checked('a')
  vi.advanceTimersByTime(100)
  // b was not checked yet; a disabled server is never waited for.
  expect(rounds.lastAt).toBeUndefined()
  checked('b')
  vi.advanceTimersByTime(100)
  expect(rounds.lastAt).toBe(1_300)
  expect(rounds.count).toBe(1)
  // The next round needs fresh checks of both.
  checked('a')
  vi.advanceTimersByTime(100)
  expect(rounds.count).toBe(1)
  // A server waiting for a person (sign-in) is not checked until then: not waited for either.
  statuses = [status('a', 'ready'), status('b', 'action_required')]
  vi.advanceTimersByTime(100)
  expect(rounds).toMatchObject({ count: 2, lastAt: 1_500 })
})

it('ends rounds of an empty registry at every tick, and says when the first one ended', async () => {
  vi.useFakeTimers({ now: 0 })
  rounds = new ProbeRounds({ calls, statuses: () => [], intervalMs: 50 })
  const first = rounds.first
  vi.advanceTimersByTime(50)
  await expect(first).resolves.toBeUndefined()
  vi.advanceTimersByTime(100)
  expect(rounds).toMatchObject({ count: 3, lastAt: 150 })
})

it('stops counting once disposed', () => {
  vi.useFakeTimers({ now: 0 })
  rounds = new ProbeRounds({ calls, statuses: () => [], intervalMs: 50 })
  rounds.dispose()
  vi.advanceTimersByTime(500)
  expect(rounds.count).toBe(0)
})
