import type { Core } from '#core/core'
import type { CanaryReport } from '#core/monitoring/canary-monitor'
import type { CallRecord } from '#core/pool/call-observer'
import type { PoolOptionsInput } from '#core/pool/options'
import { isIP } from 'node:net'
import type { CommandOptions } from '../command-table'
import { duration } from '../args'
import { openCore, type CliContext } from '../context'
import { EXIT, UsageError, type ExitCode } from '../exit-codes'
import { eventPrinter, followRegistry, round, untilStopped, type Print } from './watch'

/** How long SIGTERM waits for the canaries in progress (systemd's stop timeout is longer). */
const DRAIN_MS = 10_000

/**
 * `monitor`: `watch` plus health probes and canaries every `--interval`, one line per probe
 * result and canary run, Prometheus metrics (and `/healthz`, `/readyz`) on 127.0.0.1 and OTLP
 * export when the standard OTEL_EXPORTER_OTLP_* variables name an endpoint. SIGHUP re-reads the
 * registry; SIGINT or SIGTERM drains (the canaries in progress report) and exits 0.
 */
export async function monitorCommand(
  ctx: CliContext,
  _words: string[],
  options: CommandOptions<'monitor'>,
): Promise<ExitCode> {
  const port = options['metrics-port']
  const host = options['metrics-host'].trim()
  if (isIP(host) === 0) {
    throw new UsageError(
      `--metrics-host must be an IP address to listen on, e.g. 0.0.0.0 in a container (got "${host}")`,
    )
  }
  const intervalMs = duration('--interval', options.interval, 100, 24 * 3_600_000)
  const print = eventPrinter(ctx)
  const core = await openCore(ctx, {
    follow: true,
    watch: true,
    demoKeys: true,
    pool: monitorPool(intervalMs),
    monitor: {
      metricsPort: port,
      metricsHost: host,
      canaryIntervalMs: intervalMs,
      roundIntervalMs: intervalMs,
      onCanary: (report) => printCanary(print, report),
      otelEnv: ctx.env,
    },
  })
  const monitoring = core.monitoring!
  const endpoint = monitoring.endpoint!
  print(
    {
      event: 'metrics',
      url: endpoint.url,
      port: endpoint.port,
      intervalMs,
      otlp: monitoring.telemetry !== undefined,
    },
    `metrics at ${endpoint.url}; probes and canaries every ${intervalMs / 1000} s${monitoring.telemetry ? '; exporting OTLP' : ''}`,
  )
  const stops = [
    followRegistry(core, print),
    core.calls.add((record) => {
      if (record.probe) printProbe(print, record)
    }),
  ]
  const hangUp = (): void => void reloadOnHangUp(core, print)
  process.on('SIGHUP', hangUp)
  monitoring.startCanaries()
  await untilStopped()
  process.off('SIGHUP', hangUp)
  await monitoring.drain(DRAIN_MS)
  for (const stop of stops) stop()
  // Stops monitoring first (OTLP buffers flushed), then the servers.
  await core.dispose()
  return EXIT.ok
}

/**
 * SIGHUP (systemd's `reload`): re-reads the registry now, as if the files had changed. A
 * change is applied as any reload (its `reloaded` or `invalid` line follows).
 */
async function reloadOnHangUp(core: Core, print: Print): Promise<void> {
  const { event, emitted } = await core.registry.reloadNow()
  const reload = event.outcome === 'invalid' ? 'invalid' : emitted ? 'applied' : 'unchanged'
  print(
    { event: 'signal', signal: 'SIGHUP', reload },
    `SIGHUP: registry re-read, ${reload === 'unchanged' ? 'nothing changed' : reload}`,
  )
}

/**
 * The pool of a headless monitor: probes every interval, and no protocol log, which nobody
 * reads here and which would otherwise hold a thousand entries per server.
 */
export function monitorPool(intervalMs: number): PoolOptionsInput {
  return { probeIntervalMs: intervalMs, protocolEntries: 0 }
}

function printProbe(print: Print, record: CallRecord): void {
  const ms = round(record.ms)
  print(
    {
      event: 'probe',
      server: record.server,
      method: record.method,
      ok: !record.code,
      ms,
      ...(record.code ? { code: record.code } : {}),
    },
    `probe ${record.server}: ${record.code ? `failed (${record.code})` : 'ok'} in ${ms} ms`,
  )
}

function printCanary(print: Print, report: CanaryReport): void {
  const failures = report.failures.map((f) => f.message)
  print(
    {
      event: 'canary',
      server: report.server,
      canary: report.canary,
      passed: report.passed,
      regression: report.regression,
      trigger: report.trigger,
      hits: report.hits,
      latencyMs: round(report.latencyMs),
      failures,
    },
    `canary ${report.server} "${report.canary}": ${report.passed ? 'pass' : `FAIL${report.regression ? ' (regression)' : ''}: ${failures.join('; ')}`} (${report.trigger}, ${report.hits} hit(s), ${round(report.latencyMs)} ms)`,
  )
}
