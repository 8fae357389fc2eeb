import type { OAuthStatus } from '#shared/ipc/auth'
import type { OAuthService } from '../auth/oauth-service'
import type { RegistryStore } from '../config/store'
import { detect } from '../dialects/registry'
import type { EventBus } from '../events'
import { APP_VERSION } from '../paths'
import type { CallObservers } from '../pool/call-observer'
import type { ConnectionPool } from '../pool/pool'
import type { RagServices } from '../services/rag-services'
import { CanaryMonitor, type CanaryReport } from './canary-monitor'
import type { ConsoleMetrics } from './metrics'
import { serveMetrics, type MetricsEndpoint, type Readiness } from './metrics-server'
import { ProbeRounds } from './rounds'
import { otlpTargets } from './otlp-targets'
import type { Telemetry } from './telemetry'

export interface MonitoringOptions {
  /** Serve `/metrics` at this port (0: any free one); absent: no endpoint. */
  metricsPort?: number
  /** The address it listens on (an IP); default 127.0.0.1, loopback only. */
  metricsHost?: string
  /** Run canaries after reloads and on this period (0: after reloads only); absent: never. */
  canaryIntervalMs?: number
  /**
   * The monitor's rounds, its heartbeat and the first round `/readyz` waits for
   * (`rag-console monitor`: its `--interval`); absent: none.
   */
  roundIntervalMs?: number
  /** Every canary run, as it finishes. */
  onCanary?: (report: CanaryReport) => void
  /** The process environment, for OTLP export (OTEL_EXPORTER_OTLP_*); absent: no export. */
  otelEnv?: NodeJS.ProcessEnv
}

/** What monitoring reads of the core it watches (core.ts hands itself in). */
export interface MonitoredCore {
  readonly registry: RegistryStore
  readonly pool: ConnectionPool
  readonly services: Pick<RagServices, 'search' | 'access'>
  readonly calls: CallObservers
  readonly events: EventBus
  readonly auth: OAuthService
  /** Ports this console listens on: the metrics endpoint's is added while it serves. */
  readonly ownPorts: Set<number>
}

/**
 * Monitoring of one core, as `rag-console monitor` and the hosts' opt-in setting use it:
 * Prometheus metrics (served on loopback when asked), OTLP export when configured, and the
 * canary monitor. Started before the pool connects, so the first connects are counted too.
 * {@link dispose} stops all of it; the core keeps running.
 */
export class Monitoring {
  readonly canaries: CanaryMonitor | undefined
  private canariesStarted = false
  private draining = false

  private constructor(
    private served: Served | undefined,
    readonly telemetry: Telemetry | undefined,
    readonly rounds: ProbeRounds | undefined,
    private readonly core: MonitoredCore,
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

  static async start(core: MonitoredCore, options: MonitoringOptions): Promise<Monitoring> {
    let served: Served | undefined
    let telemetry: Telemetry | undefined
    // Known once constructed; the endpoint may be asked before.
    const started: { monitoring?: Monitoring } = {}
    const rounds =
      options.roundIntervalMs === undefined
        ? undefined
        : new ProbeRounds({
            calls: core.calls,
            statuses: () => core.pool.statuses(),
            intervalMs: options.roundIntervalMs,
          })
    const readiness = (): Readiness =>
      started.monitoring?.readiness() ?? { ready: false, reason: 'the monitor is starting' }
    try {
      if (options.metricsPort !== undefined) {
        served = await serve(core, options.metricsPort, rounds, readiness, options.metricsHost)
      }
      const env = options.otelEnv
      if (env && (otlpTargets(env).traces || otlpTargets(env).metrics)) {
        // Loaded only here: OpenTelemetry is about a third of a console's start-up otherwise.
        const { Telemetry } = await import('./telemetry')
        telemetry = new Telemetry({
          env,
          calls: core.calls,
          version: APP_VERSION,
          dialectOf: (server) => dialectOf(core, server),
        })
      }
    } catch (error) {
      rounds?.dispose()
      await stopServing(core, served)
      throw error
    }
    started.monitoring = new Monitoring(served, telemetry, rounds, core, options)
    return started.monitoring
  }

  /**
   * Ready once a registry has loaded, the first round has ended (with rounds) and the first
   * canary run has reported (with canaries); never while draining.
   */
  readiness(): Readiness {
    if (this.draining) return { ready: false, reason: 'draining: the monitor is stopping' }
    if (this.core.registry.view().appliedAt === 0) {
      return {
        ready: false,
        reason: 'the registry is invalid: nothing is monitored until it is fixed',
      }
    }
    if (this.rounds?.count === 0) {
      return { ready: false, reason: 'the first round is running: not every server checked yet' }
    }
    if (this.canaries && !this.canariesStarted) {
      return { ready: false, reason: 'the first canary run has not reported yet' }
    }
    return { ready: true }
  }

  /**
   * Serves `/metrics` on this loopback port from now on, or stops serving (undefined). A port
   * that cannot be had throws and leaves what was served as it was.
   */
  async serveMetrics(port: number | undefined): Promise<void> {
    if (port !== undefined && port !== 0 && port === this.served?.endpoint.port) return
    const next =
      port === undefined
        ? undefined
        : await serve(this.core, port, this.rounds, () => this.readiness())
    await stopServing(this.core, this.served)
    this.served = next
  }

  /**
   * Runs the canaries once and from then on after reloads and on the schedule: call it once the
   * pool has the registry, so the first run finds the servers connecting.
   */
  startCanaries(): void {
    void this.canaries?.start().then(() => (this.canariesStarted = true))
  }

  /**
   * Stops starting anything (`/readyz` answers 503 from now on) and waits up to `limitMs` for
   * the canaries in progress to report; {@link dispose} then stops the rest.
   */
  async drain(limitMs: number): Promise<void> {
    this.draining = true
    await this.canaries?.drain(limitMs)
  }

  async dispose(): Promise<void> {
    this.canaries?.dispose()
    this.rounds?.dispose()
    await stopServing(this.core, this.served)
    this.served = undefined
    await this.telemetry?.dispose()
  }
}

interface Served {
  metrics: ConsoleMetrics
  endpoint: MetricsEndpoint
}

/**
 * Collects metrics and serves them on `host`:`port` (127.0.0.1 by default); nothing is left
 * running on failure.
 */
async function serve(
  core: MonitoredCore,
  port: number,
  rounds: ProbeRounds | undefined,
  readiness: () => Readiness,
  host?: string,
): Promise<Served> {
  // Loaded only here, as telemetry is: a console that serves no /metrics never needs it.
  const { ConsoleMetrics } = await import('./metrics')
  const metrics = new ConsoleMetrics({
    calls: core.calls,
    events: core.events,
    statuses: () => core.pool.statuses(),
    health: () => core.pool.health(),
    oauth: () => oauthStatuses(core),
    ...(rounds ? { rounds } : {}),
  })
  try {
    const endpoint = await serveMetrics(() => metrics.exposition(), port, readiness, host)
    core.ownPorts.add(endpoint.port)
    return { metrics, endpoint }
  } catch (error) {
    metrics.dispose()
    throw error
  }
}

async function stopServing(core: MonitoredCore, served: Served | undefined): Promise<void> {
  if (!served) return
  core.ownPorts.delete(served.endpoint.port)
  await served.endpoint.close()
  served.metrics.dispose()
}

/**
 * The OAuth sign-in of every enabled HTTP / SSE server of the registry. Reads the keychain only
 * for servers known to use OAuth; one that cannot be read is left out of this scrape.
 */
async function oauthStatuses(core: MonitoredCore): Promise<OAuthStatus[]> {
  const remote = core.registry
    .current()
    .servers.filter((server) => server.enabled && server.transport !== 'stdio')
  const statuses = await Promise.all(
    remote.map((server) => core.auth.card(server.id).catch(() => undefined)),
  )
  return statuses.filter((status) => status !== undefined)
}

/** What a span says a server speaks: its configured dialect, else the one its tools show. */
function dialectOf(core: MonitoredCore, server: string): string {
  const config = core.registry.server(server)
  if (!config) return 'unknown'
  if (typeof config.dialect === 'object') return 'generic'
  if (config.dialect !== 'auto') return config.dialect
  const tools = core.pool.knownTools(server)
  return tools.length === 0 ? 'unknown' : (detect(tools).id ?? 'unknown')
}
