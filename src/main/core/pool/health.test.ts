import { describe, expect, it } from 'vitest'
import type { ErrorInfo } from '#shared/errors'
import { HealthTracker } from './health'

const thresholds = { calls: 10, minCalls: 4, errorRate: 0.25, p95Ms: 1000 }
const options = { windowMs: 60_000, maxSamples: 100, recent: 5 }
const error = (code: ErrorInfo['code']): ErrorInfo => ({ code, message: code })

function tracker() {
  let now = 1_000_000
  const health = new HealthTracker('s', options, () => now, thresholds)
  return { health, advance: (ms: number) => (now += ms) }
}

describe('HealthTracker', () => {
  it('computes latency quantiles over successful calls only', () => {
    const { health } = tracker()
    for (const ms of [10, 20, 30, 40, 1000]) health.record('search', ms)
    health.record('search', 5000, error('timeout'))
    const search = health.snapshot({ state: 'ready', since: 0 }).operations[0]!
    expect(search.latency).toMatchObject({ count: 5, p50: 30, max: 1000 })
    expect(search.calls).toBe(6)
    expect(search.errors).toEqual({ timeout: 1 })
    expect(search.errorRate).toBeCloseTo(1 / 6)
  })

  it("keeps a (re)connect's time out of the server's call latency, in an operation of its own", () => {
    const { health } = tracker()
    for (let i = 0; i < 5; i++) health.record('connect', 7980)
    health.record('search', 20)
    const snapshot = health.snapshot({ state: 'ready', since: 0 })
    expect(snapshot.overall.latency).toMatchObject({ count: 1, p50: 20, p95: 20 })
    expect(snapshot.overall.calls).toBe(6)
    const connect = snapshot.operations.find((o) => o.operation === 'connect')!
    expect(connect.latency).toMatchObject({ count: 5, p50: 7980 })
    // Slow connects do not make the server "slow" either.
    for (let i = 0; i < 5; i++) health.record('search', 20)
    expect(health.assess()).toBeUndefined()
  })

  it('leaves cancellations out of the error rate', () => {
    const { health } = tracker()
    health.record('search', 10)
    health.record('search', 10, error('cancelled'))
    expect(health.snapshot({ state: 'ready', since: 0 }).overall.errorRate).toBe(0)
  })

  it('says which window its rates cover; calls and errors by code count since the start', () => {
    const { health, advance } = tracker()
    health.record('search', 10, error('timeout'))
    advance(61_000)
    health.record('search', 10)
    const snapshot = health.snapshot({ state: 'ready', since: 0 })
    expect(snapshot.windowMs).toBe(60_000)
    expect(snapshot.operations[0]).toMatchObject({
      calls: 2,
      errors: { timeout: 1 },
      errorRate: 0,
    })
  })

  it('drops samples older than the window', () => {
    const { health, advance } = tracker()
    health.record('search', 10, error('timeout'))
    advance(61_000)
    health.record('search', 10)
    const search = health.snapshot({ state: 'ready', since: 0 }).operations[0]!
    expect(search.errorRate).toBe(0)
    expect(search.calls).toBe(2)
  })

  it('keeps a bounded series of recent samples', () => {
    const { health } = tracker()
    for (let i = 0; i < 8; i++) health.record('search', i)
    expect(health.snapshot({ state: 'ready', since: 0 }).recent.map((s) => s.ms)).toEqual([
      3, 4, 5, 6, 7,
    ])
  })

  it('finds a server degraded by server-side failures, not by cancellations or auth', () => {
    const { health } = tracker()
    for (let i = 0; i < 6; i++) health.record('search', 10)
    for (let i = 0; i < 4; i++) health.record('search', 10, error('cancelled'))
    health.record('search', 10, error('unauthorized'))
    expect(health.assess()).toBeUndefined()
    health.record('search', 10, error('server_error'))
    health.record('search', 10, error('server_error'))
    expect(health.assess()?.reason).toBe('2 of the last 8 calls failed (server_error)')
  })

  it('finds a slow server degraded', () => {
    const { health } = tracker()
    for (let i = 0; i < 4; i++) health.record('search', 1500)
    expect(health.assess()?.reason).toMatch(/^slow: p95 1500 ms/)
  })

  it('finds an exhausted rate limit degraded until its reset', () => {
    const { health, advance } = tracker()
    health.setRateLimit({ limit: 60, remaining: 0, reset: 30, at: 1_000_000 })
    expect(health.assess()?.reason).toMatch(/rate limit exhausted/)
    advance(31_000)
    expect(health.assess()).toBeUndefined()
  })

  it('measures uptime and when the connection came up', () => {
    const { health, advance } = tracker()
    health.transition({ state: 'connecting', since: 0, attempt: 1 })
    advance(1000)
    health.transition({ state: 'ready', since: 0 })
    advance(3000)
    const snapshot = health.snapshot({ state: 'ready', since: 0 })
    expect(snapshot.uptime).toBe(1)
    expect(snapshot.connectedSince).toBe(1_001_000)
  })

  it('counts uptime from the first failure when the server was down first', () => {
    const { health, advance } = tracker()
    health.transition({ state: 'connecting', since: 0, attempt: 1 })
    expect(health.snapshot({ state: 'connecting', since: 0, attempt: 1 }).uptime).toBeUndefined()
    advance(5000)
    health.transition({ state: 'down', since: 0, attempt: 1, lastError: error('unreachable') })
    advance(1000)
    health.transition({ state: 'ready', since: 0 })
    advance(3000)
    expect(health.snapshot({ state: 'ready', since: 0 }).uptime).toBeCloseTo(0.75)
  })
})
