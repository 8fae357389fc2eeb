import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import { NEVER_MS, SAFETY_NET_MS } from '#test/support/process/limits'
import {
  isAlive,
  manualClock,
  stdioFixture,
  textOf,
  useTestScope,
} from '#test/support/pool/helpers'
import { waitFor } from '#test/support/process/wait-for'

const testPool = useTestScope().pool

const codeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof ConsoleError ? error.code : error),
  )

/** Health probes server `a` has answered so far. */
const pingCalls = (pool: ReturnType<typeof testPool>['pool']): number =>
  pool.health('a')[0]?.operations.find((o) => o.operation === 'ping')?.calls ?? 0

describe('apply', () => {
  it('keeps unchanged servers, reconnects changed ones and closes removed ones', async () => {
    const { pool } = testPool()
    const a = stdioFixture('a', 'stdio-server.mjs')
    const b = stdioFixture('b', 'stdio-server.mjs')
    const c = stdioFixture('c', 'stdio-server.mjs')
    expect(await pool.apply([a, b, c])).toEqual({
      added: ['a', 'b', 'c'],
      removed: [],
      changed: [],
      unchanged: [],
    })
    await Promise.all(['a', 'b', 'c'].map((id) => pool.session(id)))
    const [pidA, pidB, pidC] = pool.pids()

    const diff = await pool.apply([a, { ...b, timeoutMs: 2 * SAFETY_NET_MS }])
    expect(diff).toEqual({ added: [], removed: ['c'], changed: ['b'], unchanged: ['a'] })
    expect(isAlive(pidC!)).toBe(false)
    expect(isAlive(pidB!)).toBe(false)
    await pool.session('b')
    const pids = pool.pids()
    expect(pids).toContain(pidA)
    expect(pids).not.toContain(pidB)
    expect(await codeOf(pool.session('c'))).toBe('not_found')
  })

  it('holds new connections until told to connect, listing them as connecting meanwhile', async () => {
    const { pool, waitForState } = testPool()
    let release!: () => void
    pool.holdConnects(new Promise<void>((resolve) => (release = resolve)))
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(pool.status('a').state).toBe('connecting')
    expect(pool.pids()).toEqual([])
    release()
    await waitForState('a', 'ready')
    expect(pool.pids()).toHaveLength(1)
  })

  it('uses the given hashes to decide what changed', async () => {
    const { pool } = testPool()
    const a = stdioFixture('a', 'stdio-server.mjs')
    await pool.apply([a], { a: 'h1' })
    await pool.session('a')
    const [pid] = pool.pids()
    expect((await pool.apply([a], { a: 'h1' })).unchanged).toEqual(['a'])
    expect(pool.pids()).toEqual([pid])
    expect((await pool.apply([a], { a: 'h2' })).changed).toEqual(['a'])
  })

  it('fails a call in flight on a removed server with not_connected', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    const call = pool.callTool('a', 'sleep', { ms: NEVER_MS }, { operation: 'search' })
    await waitFor(async () => {
      const stats = JSON.parse(textOf(await pool.callTool('a', 'stats', {}, { operation: 'call' })))
      return stats.inFlight === 1
    })
    await pool.apply([])
    expect(await codeOf(call)).toBe('not_connected')
  })

  it('fails the calls of a replaced connection with not_connected', async () => {
    const { pool } = testPool()
    const a = stdioFixture('a', 'stdio-server.mjs')
    await pool.apply([a])
    const session = await pool.session('a')
    await pool.apply([{ ...a, timeoutMs: 2 * SAFETY_NET_MS }])
    expect(await codeOf(session.callTool('echo', { text: 'x' }, { operation: 'call' }))).toBe(
      'not_connected',
    )
  })
})

describe('status', () => {
  it('emits server:status for every change, starting with connecting', async () => {
    const { pool, statuses } = testPool()
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await pool.session('a')
    expect(statuses.map((s) => [s.server, s.status.state])).toEqual([
      ['a', 'connecting'],
      ['a', 'ready'],
    ])
    expect(pool.statuses()).toEqual([
      { server: 'a', status: expect.objectContaining({ state: 'ready' }) },
    ])
  })

  it('shows a disabled server as disabled and refuses its calls', async () => {
    const { pool } = testPool()
    await pool.apply([{ ...stdioFixture('off', 'stdio-server.mjs'), enabled: false }])
    expect(pool.status('off').state).toBe('disabled')
    expect(pool.pids()).toEqual([])
    expect(await codeOf(pool.callTool('off', 'echo', {}, { operation: 'call' }))).toBe(
      'not_connected',
    )
  })

  it('degrades a server whose calls keep failing, and recovers when they succeed', async () => {
    const { pool, waitForState } = testPool({ degraded: { minCalls: 4, calls: 8 } })
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await pool.session('a')
    for (let i = 0; i < 4; i++) await pool.callTool('a', 'fail', {}, { operation: 'search' })
    const degraded = await waitForState('a', 'degraded')
    expect((degraded as { reason: string }).reason).toMatch(/failed \(tool_error\)/)
    for (let i = 0; i < 8; i++)
      await pool.callTool('a', 'echo', { text: 'ok' }, { operation: 'search' })
    await waitForState('a', 'ready')
  })

  it('degrades a server that answers slowly', async () => {
    const { pool, waitForState } = testPool({ degraded: { minCalls: 3, p95Ms: 40 } })
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await pool.session('a')
    for (let i = 0; i < 5; i++)
      await pool.callTool('a', 'sleep', { ms: 60 }, { operation: 'search' })
    const degraded = await waitForState('a', 'degraded')
    expect((degraded as { reason: string }).reason).toMatch(/slow: p95/)
  })

  it('fails every call after dispose', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await pool.dispose()
    expect(await codeOf(pool.callTool('a', 'echo', {}, { operation: 'call' }))).toBe(
      'not_connected',
    )
  })
})

describe('health', () => {
  it('measures every call per operation', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    for (let i = 0; i < 5; i++)
      await pool.callTool('a', 'echo', { text: 'x' }, { operation: 'search' })
    await pool
      .callTool('a', 'sleep', { ms: NEVER_MS }, { operation: 'discover', timeoutMs: 20 })
      .catch(() => {})
    const [health] = pool.health('a')
    const search = health!.operations.find((o) => o.operation === 'search')!
    expect(search.calls).toBe(5)
    expect(search.latency.count).toBe(5)
    expect(search.latency.p50).toBeGreaterThan(0)
    expect(search.latency.max).toBeGreaterThanOrEqual(search.latency.p99)
    expect(search.errorRate).toBe(0)
    expect(search.lastSuccessAt).toBeGreaterThan(0)
    const discover = health!.operations.find((o) => o.operation === 'discover')!
    expect(discover.errors).toEqual({ timeout: 1 })
    expect(discover.errorRate).toBe(1)
    expect(discover.lastError?.code).toBe('timeout')
    expect(health!.overall.calls).toBeGreaterThanOrEqual(7) // + the connect
    expect(health!.recent.filter((s) => s.operation === 'search')).toHaveLength(5)
    expect(health!.connectedSince).toBeGreaterThan(0)
    expect(health!.uptime).toBeGreaterThan(0)
  })

  it('counts uptime from the first known state, so a server up since it connected shows 100 %', async () => {
    const clock = manualClock()
    const { pool, waitForState } = testPool({}, {}, clock)
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    // Still connecting: nothing is known yet, so there is no uptime to show.
    expect(pool.health('a')[0]!.uptime).toBeUndefined()
    clock.advance(6_000)
    await waitForState('a', 'ready')
    clock.advance(54_000)
    expect(pool.health('a')[0]!.uptime).toBe(1)
  })

  it('probes a connected server periodically with ping', async () => {
    const { pool } = testPool({ probeIntervalMs: 30 })
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await pool.session('a')
    const health = await waitFor(() => {
      const [h] = pool.health('a')
      const ping = h!.operations.find((o) => o.operation === 'ping')
      return ping && ping.calls >= 2 ? h : undefined
    })
    expect(health.lastCheckAt).toBeGreaterThan(0)
    expect(pool.status('a').state).toBe('ready')
  })

  it('keeps at most protocolEntries protocol log entries per server', async () => {
    const { pool } = testPool({ probeIntervalMs: 10, protocolEntries: 5 })
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await pool.session('a')
    await waitFor(() => pingCalls(pool) >= 10)
    expect(pool.protocol('a').list()).toHaveLength(5)
  })

  it("lets a removed server's protocol log go from the pool's budget", async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('a', 'stdio-server.mjs'), stdioFixture('b', 'stdio-server.mjs')])
    await Promise.all([pool.session('a'), pool.session('b')])
    const kept = (id: string): number =>
      pool
        .protocol(id)
        .list()
        .reduce((sum, entry) => sum + entry.text.length, 0)
    // Read first: reading a log works out its waiting entries, which the budget counts.
    const both = kept('a') + kept('b')
    expect(kept('a')).toBeGreaterThan(0)
    expect(pool.protocolLogChars).toBe(both)
    await pool.apply([stdioFixture('b', 'stdio-server.mjs')])
    const left = kept('b')
    expect(pool.protocolLogChars).toBe(left)
  })

  it('keeps no protocol log with protocolEntries 0, and probes all the same', async () => {
    const { pool } = testPool({ probeIntervalMs: 10, protocolEntries: 0 })
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await pool.session('a')
    await waitFor(() => pingCalls(pool) >= 10)
    expect(pool.protocol('a').list()).toEqual([])
  })

  it('marks a hung server down when its probe times out, and ready when it answers again', async () => {
    const { pool, waitForState } = testPool({ probeIntervalMs: 30, probeTimeoutMs: 100 })
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await pool.session('a')
    const [pid] = pool.pids()
    process.kill(pid!, 'SIGSTOP')
    try {
      const down = await waitForState('a', 'down')
      expect(down).toMatchObject({ lastError: { code: 'timeout' } })
    } finally {
      process.kill(pid!, 'SIGCONT')
    }
    await waitForState('a', 'ready')
    expect(pool.pids()).toEqual([pid])
    const result = await pool.callTool('a', 'echo', { text: 'awake' }, { operation: 'call' })
    expect(textOf(result)).toBe('awake')
  })
})
