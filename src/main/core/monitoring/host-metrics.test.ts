import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { SettingsStore } from '../services/settings'
import { fixtureEntry, startCore, whenState } from '#test/support/core/live'

/** The desktop app's and browser host's opt-in /metrics (settings.json `metrics`). */
let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rc-host-metrics-'))
})

afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const settings = (): SettingsStore => new SettingsStore(join(dir, 'data', 'settings.json'))
const registry = { kb: fixtureEntry(['--name', 'kb']) }

it('serves no metrics unless settings.json turns them on', async () => {
  expect(settings().metrics()).toEqual({ enabled: false, port: 9470 })
  const live = await startCore(registry, { dir, monitor: true })
  try {
    expect(live.core.monitoring).toBeDefined()
    expect(live.core.monitoring?.endpoint).toBeUndefined()
  } finally {
    await live.close()
  }
})

it('serves the same /metrics on loopback once enabled, and stops with the core', async () => {
  settings().setMetrics({ enabled: true, port: 0 })
  const live = await startCore(registry, { dir, monitor: true })
  const url = live.core.monitoring?.endpoint?.url
  try {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    await whenState(live.core, ['kb'])
    const text = await (await fetch(url!)).text()
    expect(text).toContain('rag_console_server_up{server="kb"} 1')
    expect(text).toContain(
      'rag_console_calls_total{server="kb",operation="connect",outcome="ok",traffic="user"} 1',
    )
  } finally {
    await live.close()
  }
  await expect(fetch(url!)).rejects.toThrow()
})

it('starts without metrics and says why when their port is taken', async () => {
  const busy: Server = createServer()
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()))
  const port = (busy.address() as { port: number }).port
  settings().setMetrics({ enabled: true, port })
  const live = await startCore(registry, { dir, monitor: true })
  try {
    expect(live.core.monitoring?.endpoint).toBeUndefined()
    expect(live.core.info().notices).toEqual([
      expect.objectContaining({
        level: 'warning',
        message: expect.stringContaining(`metrics port ${port} on 127.0.0.1 is in use`),
      }),
    ])
  } finally {
    await live.close()
    busy.close()
  }
})

it('turns /metrics on and off while running, saving the choice only when it took', async () => {
  const live = await startCore(registry, { dir, monitor: true })
  const busy: Server = createServer()
  try {
    expect(live.core.metricsState()).toEqual({ enabled: false, port: 9470 })
    const on = await live.core.setMetrics({ enabled: true, port: 0 })
    expect(on.enabled).toBe(true)
    expect(on.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    await whenState(live.core, ['kb'])
    expect(await (await fetch(on.url!)).text()).toContain('rag_console_server_up{server="kb"} 1')
    expect(settings().metrics()).toEqual({ enabled: true, port: 0 })

    // A port someone else holds: a clear error, the endpoint that was serving is kept as it was.
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()))
    const port = (busy.address() as { port: number }).port
    const taken = await live.core.setMetrics({ enabled: true, port })
    expect(taken.error).toContain(`metrics port ${port} on 127.0.0.1 is in use`)
    expect(taken.url).toBe(on.url)
    expect(settings().metrics()).toEqual({ enabled: true, port: 0 })
    expect((await fetch(on.url!)).status).toBe(200)

    const off = await live.core.setMetrics({ enabled: false, port: 0 })
    expect(off).toEqual({ enabled: false, port: 0 })
    expect(settings().metrics()).toEqual({ enabled: false, port: 0 })
    await expect(fetch(on.url!)).rejects.toThrow()
  } finally {
    await live.close()
    busy.close()
  }
})
