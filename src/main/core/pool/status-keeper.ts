import type { ConsoleError } from '#shared/errors'
import { isSignInRequired } from '../auth/sign-in-error'
import type { ServerStatus } from '#shared/model/server'
import { backoffDelay, type BackoffOptions } from './backoff'
import type { Clock } from './clock'
import { missingFields } from './connection-errors'
import type { HealthTracker } from './health'
import type { ServerLog } from './server-log'

export interface StatusKeeperDeps {
  clock: Clock
  backoff: BackoffOptions
  random: () => number
  health: HealthTracker
  log: ServerLog
  onStatus(status: ServerStatus): void
}

/**
 * The status of one server and its single retry/probe timer: every change is recorded for
 * uptime and announced (only when something a person would see changed); failed attempts are
 * counted and retried with exponential backoff and jitter.
 */
export class StatusKeeper {
  private value: ServerStatus
  private timer: unknown
  private failureCount = 0
  private stopped = false

  constructor(
    initial: ServerStatus,
    private readonly deps: StatusKeeperDeps,
  ) {
    this.value = initial
  }

  get current(): ServerStatus {
    return this.value
  }

  /** Consecutive failed attempts since the server was last ready. */
  get failures(): number {
    return this.failureCount
  }

  /** Whether a retry or probe is scheduled. */
  get scheduled(): boolean {
    return this.timer !== undefined
  }

  /** Announces the initial status. */
  announce(): void {
    this.deps.health.transition(this.value)
    this.deps.onStatus(this.value)
  }

  connecting(): void {
    this.set({ state: 'connecting', since: this.now(), attempt: this.failureCount + 1 })
  }

  ready(): void {
    this.failureCount = 0
    this.set({ state: 'ready', since: this.now() })
  }

  /** Only a person can fix it: no automatic retry. */
  actionRequired(error: ConsoleError): void {
    this.clearTimer()
    this.set({
      state: 'action_required',
      since: this.now(),
      reason: error.message,
      lastError: error.toInfo(),
      ...missingFields(error.details),
      ...(isSignInRequired(error) ? { signInRequired: true } : {}),
    })
  }

  /** `down`, with `retry` run after the next backoff delay. */
  down(error: ConsoleError, retry: () => void): void {
    if (this.stopped) return
    // Several calls failing at once are one outage, not several attempts.
    if (this.value.state === 'down' && this.timer !== undefined) return
    this.failureCount++
    const delay = backoffDelay(this.failureCount, this.deps.backoff, this.deps.random)
    this.set({
      state: 'down',
      since: this.now(),
      lastError: error.toInfo(),
      attempt: this.failureCount,
      nextRetryAt: this.now() + delay,
    })
    this.deps.log.push('pool', `${error.message} (retry ${this.failureCount} in ${delay} ms)`)
    this.schedule(delay, retry)
  }

  /** Between `ready` and `degraded`, as the recent calls say (see DegradedThresholds). */
  assess(): void {
    const status = this.value
    if (status.state !== 'ready' && status.state !== 'degraded') return
    const verdict = this.deps.health.assess()
    if (verdict) {
      this.set({
        state: 'degraded',
        since: status.state === 'degraded' ? status.since : this.now(),
        reason: verdict.reason,
        ...(verdict.lastError ? { lastError: verdict.lastError } : {}),
      })
    } else if (status.state === 'degraded') this.set({ state: 'ready', since: this.now() })
  }

  schedule(ms: number, action: () => void): void {
    this.clearTimer()
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined
      if (!this.stopped) action()
    }, ms)
  }

  clearTimer(): void {
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer)
    this.timer = undefined
  }

  /** No more changes or timers (the server left the pool). */
  stop(): void {
    this.clearTimer()
    this.stopped = true
  }

  private set(next: ServerStatus): void {
    if (this.stopped) return
    const previous = this.value
    this.value = next
    this.deps.health.transition(next)
    if (!sameStatus(previous, next)) this.deps.onStatus(next)
  }

  private now(): number {
    return this.deps.clock.now()
  }
}

function sameStatus(a: ServerStatus, b: ServerStatus): boolean {
  if (a.state !== b.state) return false
  const key = (s: ServerStatus): string =>
    JSON.stringify([
      'reason' in s ? s.reason : '',
      'attempt' in s ? s.attempt : 0,
      'nextRetryAt' in s ? s.nextRetryAt : 0,
      'lastError' in s ? s.lastError?.message : '',
    ])
  return key(a) === key(b)
}
