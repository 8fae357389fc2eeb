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
  private constructor(
    readonly metrics: ConsoleMetrics | undefined,
    readonly endpoint: MetricsEndpoint | undefined,
    readonly telemetry: Telemetry | undefined,
    readonly canaries: CanaryMonitor | undefined,
    private readonly core: Core,
  ) {}

  static async start(core: Core, options: MonitoringOptions): Promise<Monitoring> {
    // Collected only where someone can scrape them.
    const metrics =
      options.metricsPort === undefined
        ? undefined
        : new ConsoleMetrics({
            calls: core.calls,
            events: core.events,
            statuses: () => core.pool.statuses(),
            health: () => core.pool.health(),
          })
    let endpoint: MetricsEndpoint | undefined
    let telemetry: Telemetry | undefined
    try {
      if (metrics && options.metricsPort !== undefined) {
        endpoint = await serveMetrics(() => metrics.exposition(), options.metricsPort)
        core.ownPorts.add(endpoint.port)
      }
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
      metrics?.dispose()
      await endpoint?.close()
      throw error
    }
    let canaries: CanaryMonitor | undefined
    if (options.canaryIntervalMs !== undefined) {
      canaries = new CanaryMonitor({
        registry: core.registry,
        poolIdle: () => core.pool.idle(),
        services: {
          search: (request) => core.services.search.run(request),
          verify: (target) => core.services.access.check(target, { refresh: true }),
        },
        onReport: (report) => {
          metrics?.canary(report)
          options.onCanary?.(report)
        },
        intervalMs: options.canaryIntervalMs,
      })
    }
    return new Monitoring(metrics, endpoint, telemetry, canaries, core)
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
    if (this.endpoint) {
      this.core.ownPorts.delete(this.endpoint.port)
      await this.endpoint.close()
    }
    await this.telemetry?.dispose()
    this.metrics?.dispose()
  }
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
