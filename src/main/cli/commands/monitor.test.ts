import { rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { SAFETY_NET_MS } from '#test/support/process/limits'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createTestPool, stdioFixture } from '#test/support/pool/helpers'
import { waitFor } from '#test/support/process/wait-for'
import { fixtureEntry } from '#test/support/core/live'
import { startMonitor } from '#test/support/cli/monitor-process'
import { cliHome, runCli, writeRegistry } from '#test/support/cli/run-cli'
import { monitorPool } from './monitor'

/** `monitor` as a person or a service manager runs it: lines, metrics, signals, bad input. */
let home: string

beforeEach(() => {
  home = cliHome()
})

afterEach(() => {
  rmSync(home, { recursive: true, force: true })
})

it('prints probe and canary lines, serves /metrics (404 elsewhere), and exits 0 on SIGTERM', async () => {
  const config = writeRegistry(home, {
    kb: {
      ...fixtureEntry(['--name', 'kb']),
      canaries: [{ name: 'five hits', query: 'vpn', expect: { minHits: 5 } }],
    },
  })
  const monitor = await startMonitor(['--config', config, '--interval', '300ms'], home)
  try {
    expect(monitor.lines[0]).toMatchObject({ event: 'metrics', intervalMs: 300, otlp: false })
    await monitor.line((l) => l.event === 'status' && l.server === 'kb' && l.status === 'ready')
    expect(await monitor.line((l) => l.event === 'probe')).toMatchObject({
      server: 'kb',
      ok: true,
      ms: expect.any(Number),
    })
    expect(
      await monitor.line((l) => l.event === 'canary' && l.trigger === 'schedule'),
    ).toMatchObject({
      server: 'kb',
      canary: 'five hits',
      passed: true,
      hits: 5,
      failures: [],
    })
    const metrics = await fetch(monitor.metricsUrl)
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await metrics.text()).toContain(
      'rag_console_canary_passed{server="kb",canary="five hits"} 1',
    )
    expect((await fetch(new URL('/', monitor.metricsUrl))).status).toBe(404)
    expect((await fetch(monitor.metricsUrl, { method: 'POST' })).status).toBe(405)
  } finally {
    expect(await monitor.stop()).toBe(0)
  }
})

it('refuses an interval it cannot read, as a usage error', async () => {
  const run = await runCli(['monitor', '--interval', 'soon'], home)
  expect(run.code).toBe(2)
  expect(run.stderr).toContain('--interval must be a duration from 100 ms to 86400 s, e.g. 15s')
})

it('says which metrics port is taken and exits 1 instead of hanging', async () => {
  const busy: Server = createServer()
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()))
  const port = (busy.address() as { port: number }).port
  try {
    const config = writeRegistry(home, {})
    const run = await runCli(['--config', config, 'monitor', '--metrics-port', String(port)], home)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`metrics port ${port} on 127.0.0.1 is in use`)
  } finally {
    busy.close()
  }
})

it('probes with a pool that keeps no protocol log, which nobody reads headless', async () => {
  const { pool } = createTestPool(monitorPool(10))
  try {
    await pool.apply([stdioFixture('a', 'stdio-server.mjs')])
    await pool.session('a')
    await waitFor(
      () => (pool.health('a')[0]?.operations.find((o) => o.operation === 'ping')?.calls ?? 0) >= 5,
    )
    expect(pool.protocol('a').list()).toEqual([])
  } finally {
    await pool.dispose()
  }
})

/** A registry of one server whose searches take `delayMs`, and a canary searching it. */
const slowCanary = (delayMs: number): string =>
  writeRegistry(home, {
    slow: {
      ...fixtureEntry(['--name', 'slow', '--delay', String(delayMs)]),
      canaries: [{ name: 'slow search', query: 'vpn' }],
    },
  })

it('answers /healthz at once and /readyz once the first round and canary run are done', async () => {
  const config = slowCanary(1500)
  const monitor = await startMonitor(['--config', config, '--interval', '200ms'], home)
  const url = (path: string): URL => new URL(path, monitor.metricsUrl)
  try {
    const alive = await fetch(url('/healthz'))
    expect([alive.status, await alive.text()]).toEqual([200, 'ok\n'])
    // The canary's search takes 1.5 s: not ready until it has answered.
    const early = await fetch(url('/readyz'))
    expect(early.status).toBe(503)
    expect(await early.text()).toMatch(/^not ready: /)
    await monitor.line((l) => l.event === 'canary' && l.trigger === 'start')
    await expect
      .poll(async () => (await fetch(url('/readyz'))).status, { timeout: SAFETY_NET_MS })
      .toBe(200)
    expect(await (await fetch(url('/readyz'))).text()).toBe('ready\n')
  } finally {
    expect(await monitor.stop()).toBe(0)
  }
})

it('re-reads the registry on SIGHUP and keeps running', async () => {
  const config = writeRegistry(home, { kb: fixtureEntry(['--name', 'kb']) })
  const monitor = await startMonitor(['--config', config, '--interval', '300ms'], home)
  try {
    await monitor.line((l) => l.event === 'status' && l.status === 'ready')
    monitor.child.kill('SIGHUP')
    expect(await monitor.line((l) => l.event === 'signal')).toEqual({
      event: 'signal',
      signal: 'SIGHUP',
      reload: 'unchanged',
    })
    expect(monitor.child.exitCode).toBeNull()
    expect(await (await fetch(monitor.metricsUrl)).text()).toContain(
      'rag_console_server_up{server="kb"} 1',
    )
  } finally {
    expect(await monitor.stop()).toBe(0)
  }
})

it('drains on SIGTERM: the canary in flight reports before it exits 0', async () => {
  const config = slowCanary(1000)
  const monitor = await startMonitor(['--config', config, '--interval', '1h'], home)
  await monitor.line((l) => l.event === 'status' && l.status === 'ready')
  expect(monitor.lines.some((l) => l.event === 'canary')).toBe(false)
  expect(await monitor.stop()).toBe(0)
  expect(monitor.lines.find((l) => l.event === 'canary')).toMatchObject({
    server: 'slow',
    passed: true,
    trigger: 'start',
  })
})

it('listens on --metrics-host (a container publishes the port), refusing anything but an IP', async () => {
  const config = writeRegistry(home, {})
  const monitor = await startMonitor(['--config', config, '--metrics-host', '0.0.0.0'], home)
  try {
    expect(monitor.metricsUrl).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/metrics$/)
    const port = new URL(monitor.metricsUrl).port
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
  } finally {
    expect(await monitor.stop()).toBe(0)
  }
  const run = await runCli(['monitor', '--metrics-host', 'metrics.example'], home)
  expect(run.code).toBe(2)
  expect(run.stderr).toContain('--metrics-host must be an IP address')
})
