import packageJson from '../../../../package.json'
import type { Core } from '../core'
import { detect } from '../dialects/registry'
import { CanaryMonitor, type CanaryReport } from './canary-monitor'
import { ConsoleMetrics } from './metrics'
import { serveMetrics, type MetricsEndpoint } from './metrics-server'
import { Telemetry, otlpTargets } from './telemetry'

export interface MonitoringOptions {
  /** Serve `/metrics` on 127.0.0.1 at this port (0: any free one); absent: no endpoint. */
  metricsPort?: number
  /** Run canaries after reloads and on this period (0: after reloads only); absent: never. */
  canaryIntervalMs?: number
  /** Every canary run, as it finishes. */
  onCanary?: (report: CanaryReport) => void
  /** The process environment, for OTLP export (OTEL_EXPORTER_OTLP_*); absent: no export. */
  otelEnv?: NodeJS.ProcessEnv
}

/**
 * Monitoring of one core, as `rag-console monitor` and the hosts' opt-in setting use it:
 * Prometheus metrics (served on loopback when asked), OTLP export when configured, and the
 * canary monitor. Started before the pool connects, so the first connects are counted too.
 * {@link dispose} stops all of it; the core keeps running.
 */
export class Monitoring {
  readonly canaries: CanaryMonitor | undefined

  private constructor(
    private served: { metrics: ConsoleMetrics; endpoint: MetricsEndpoint } | undefined,
    readonly telemetry: Telemetry | undefined,
    private readonly core: Core,
    options: MonitoringOptions,
  ) {
    if (options.canaryIntervalMs === undefined) return
    this.canaries = new CanaryMonitor({
      registry: core.registry,
      poolIdle: () => core.pool.idle(),
      services: {
        search: (request) => core.services.search.run(request),
        verify: (target) => core.services.access.check(target, { refresh: true }),
      },
      onReport: (report) => {
        // Read at each report: metrics may be turned on and off meanwhile.
        this.metrics?.canary(report)
        options.onCanary?.(report)
      },
      intervalMs: options.canaryIntervalMs,
    })
  }

  /** Collected only while someone can scrape them. */
  get metrics(): ConsoleMetrics | undefined {
    return this.served?.metrics
  }

  get endpoint(): MetricsEndpoint | undefined {
    return this.served?.endpoint
  }

  static async start(core: Core, options: MonitoringOptions): Promise<Monitoring> {
    let served: Monitoring['served']
    let telemetry: Telemetry | undefined
    try {
      if (options.metricsPort !== undefined) served = await serve(core, options.metricsPort)
      const env = options.otelEnv
      if (env && (otlpTargets(env).traces || otlpTargets(env).metrics)) {
        telemetry = new Telemetry({
          env,
          calls: core.calls,
          version: packageJson.version,
          dialectOf: (server) => dialectOf(core, server),
        })
      }
    } catch (error) {
      await stopServing(core, served)
      throw error
    }
    return new Monitoring(served, telemetry, core, options)
  }

  /**
   * Serves `/metrics` on this loopback port from now on, or stops serving (undefined). A port
   * that cannot be had throws and leaves what was served as it was.
   */
  async serveMetrics(port: number | undefined): Promise<void> {
    if (port !== undefined && port !== 0 && port === this.served?.endpoint.port) return
    const next = port === undefined ? undefined : await serve(this.core, port)
    await stopServing(this.core, this.served)
    this.served = next
  }

  /**
   * Runs the canaries once and from then on after reloads and on the schedule: call it once the
   * pool has the registry, so the first run finds the servers connecting.
   */
  startCanaries(): void {
    void this.canaries?.start()
  }

  async dispose(): Promise<void> {
    this.canaries?.dispose()
    await stopServing(this.core, this.served)
    this.served = undefined
    await this.telemetry?.dispose()
  }
}

/** Collects metrics and serves them on 127.0.0.1:`port`; nothing is left running on failure. */
async function serve(
  core: Core,
  port: number,
): Promise<{ metrics: ConsoleMetrics; endpoint: MetricsEndpoint }> {
  const metrics = new ConsoleMetrics({
    calls: core.calls,
    events: core.events,
    statuses: () => core.pool.statuses(),
    health: () => core.pool.health(),
  })
  try {
    const endpoint = await serveMetrics(() => metrics.exposition(), port)
    core.ownPorts.add(endpoint.port)
    return { metrics, endpoint }
  } catch (error) {
    metrics.dispose()
    throw error
  }
}

async function stopServing(
  core: Core,
  served: { metrics: ConsoleMetrics; endpoint: MetricsEndpoint } | undefined,
): Promise<void> {
  if (!served) return
  core.ownPorts.delete(served.endpoint.port)
  await served.endpoint.close()
  served.metrics.dispose()
}

/** What a span says a server speaks: its configured dialect, else the one its tools show. */
function dialectOf(core: Core, server: string): string {
  const config = core.registry.server(server)
  if (!config) return 'unknown'
  if (typeof config.dialect === 'object') return 'generic'
  if (config.dialect !== 'auto') return config.dialect
  const tools = core.pool.knownTools(server)
  return tools.length === 0 ? 'unknown' : (detect(tools).id ?? 'unknown')
}
