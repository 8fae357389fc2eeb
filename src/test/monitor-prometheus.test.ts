import { rmSync } from 'node:fs'
import { afterAll, expect, it } from 'vitest'
import { eventually, startDemo, type DemoProcess } from './support/demo/programs'
import { startMonitor, type MonitorProcess } from './support/cli/monitor-process'
import { cliHome, writeRegistry } from './support/cli/run-cli'
import { startOnce, startPrometheus, type PrometheusProcess } from './support/servers/prometheus'

/**
 * The real engine: Debian's Prometheus scrapes `rag-console monitor` on loopback while it
 * watches two VTEX demo servers; the series are read back through Prometheus's query API,
 * before and after one demo server is killed and after a registry reload.
 */
let home: string
let catalog: DemoProcess
let spare: DemoProcess
let monitor: MonitorProcess
let prometheus: PrometheusProcess
let config: string

function registry(): object {
  return {
    catalog: {
      url: catalog.url,
      dialect: 'vtex',
      canaries: [{ name: 'laptops', query: 'laptop', expect: { minHits: 1 } }],
    },
    spare: { url: spare.url, dialect: 'vtex', timeoutMs: 2_000 },
  }
}

const setup = startOnce(start)

async function start(): Promise<void> {
  home = cliHome()
  ;[catalog, spare] = await Promise.all([
    startDemo(['vtex', '--port', '0']),
    startDemo(['vtex', '--port', '0']),
  ])
  config = writeRegistry(home, registry())
  monitor = await startMonitor(['--config', config, '--interval', '1s'], home)
  prometheus = await startPrometheus(new URL(monitor.metricsUrl).host)
}

afterAll(async () => {
  await prometheus?.stop()
  await monitor?.stop()
  await Promise.all([catalog?.stop(), spare?.stop()])
  if (home) rmSync(home, { recursive: true, force: true })
})

/** The value of each series of a query, by one label. */
async function values(promql: string, label = 'server'): Promise<Record<string, number>> {
  const result = await prometheus.query(promql)
  return Object.fromEntries(result.map((r) => [r.metric[label] ?? '', Number(r.value[1])]))
}

/** Polls a query until its values by `label` satisfy `ready`, then returns them. */
function whenValues(
  promql: string,
  ready: (values: Record<string, number>) => boolean,
  label = 'server',
  timeoutMs = 30_000,
): Promise<Record<string, number>> {
  return eventually(async () => {
    const v = await values(promql, label)
    return ready(v) ? v : undefined
  }, timeoutMs)
}

it('has every server up, their calls, latency and canaries in Prometheus', async () => {
  await setup()
  await whenValues('rag_console_server_up', (up) => up.catalog === 1 && up.spare === 1)
  const calls = await whenValues(
    'sum by (server) (rag_console_calls_total{outcome="ok"})',
    (v) => !!v.catalog && !!v.spare,
  )
  expect(calls.catalog).toBeGreaterThan(0)
  const canary = await whenValues(
    'rag_console_canary_passed',
    (v) => v.laptops !== undefined,
    'canary',
  )
  expect(canary).toEqual({ laptops: 1 })
  const latency = await values(
    'sum by (server) (rag_console_call_duration_seconds_count{operation="search"})',
  )
  expect(latency.catalog).toBeGreaterThan(0)
})

it('shows a killed server going down, and counts a reload', async () => {
  await setup()
  await spare.stop()
  await whenValues('rag_console_server_up', (up) => up.spare === 0 && up.catalog === 1)
  const failed = await whenValues(
    'sum by (server) (rag_console_calls_total{outcome!="ok"})',
    (v) => !!v.spare,
  )
  expect(failed.spare).toBeGreaterThan(0)

  writeRegistry(home, { catalog: (registry() as Record<string, object>).catalog })
  await monitor.line((l) => l.event === 'reloaded')
  const reloads = await whenValues(
    'rag_console_registry_reloads_total',
    (v) => !!v.applied,
    'outcome',
  )
  expect(reloads).toEqual({ applied: 1 })
  expect(await values('rag_console_registry_last_reload_success', 'job')).toEqual({
    'rag-console': 1,
  })
})
