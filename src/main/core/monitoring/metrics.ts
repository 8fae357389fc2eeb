import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { OAuthStatus } from '#shared/ipc/auth'
import type { PoolServerStatus } from '#shared/ipc/servers'
import type { ServerHealth } from '#shared/model/server'
import type { EventBus } from '../events'
import type { CallObservers, CallRecord } from '../pool/call-observer'
import type { CanaryResult } from './canaries'

/** Where the metrics come from: the core's call records, events and pool state. */
export interface MetricsSources {
  calls: CallObservers
  events: EventBus
  statuses(): PoolServerStatus[]
  health(): ServerHealth[]
  /** Each HTTP / SSE server's OAuth sign-in, read at scrape time; absent: no OAuth metrics. */
  oauth?: () => Promise<OAuthStatus[]>
  /** The monitor's rounds (`rag-console monitor`); absent: no heartbeat metrics. */
  rounds?: {
    readonly lastAt: number | undefined
    readonly startedAt: number
    readonly intervalMs: number
  }
  now?: () => number
}

/** Latency buckets in seconds: loopback calls take ~1 ms, remote RAG searches seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/**
 * The console's Prometheus metrics (names in docs/monitoring.md): call counts and latency per
 * server and operation from the pool's call records, server up/state and rate-limit headroom
 * read from the pool at scrape time, canary outcomes, and registry reloads.
 */
export class ConsoleMetrics {
  readonly registry = new Registry()
  private readonly stops: (() => void)[] = []
  private readonly calls: Counter
  private readonly latency: Histogram
  private readonly canaryPassed: Gauge
  private readonly canaryRuns: Counter
  private readonly canaryLatency: Gauge
  private readonly reloads: Counter
  private readonly lastReload: Gauge
  private readonly lastReloadAt: Gauge
  /** Canary series by server, so an edit or removal does not leave a stale verdict behind. */
  private readonly canaries = new Map<string, Set<string>>()

  constructor(sources: MetricsSources) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry, prefix: 'rag_console_' })
    this.calls = new Counter({
      name: 'rag_console_calls_total',
      help: 'Calls to servers by operation, outcome (ok, or the error code) and traffic (user, or diagnostic: Doctor and health probes)',
      labelNames: ['server', 'operation', 'outcome', 'traffic'],
      registers,
    })
    this.latency = new Histogram({
      name: 'rag_console_call_duration_seconds',
      help: 'Latency of calls to servers, successful or not',
      labelNames: ['server', 'operation', 'traffic'],
      buckets: LATENCY_BUCKETS,
      registers,
    })
    new Gauge({
      name: 'rag_console_server_up',
      help: '1 when the server is connected (ready or degraded), else 0',
      labelNames: ['server'],
      registers,
      collect() {
        this.reset()
        for (const { server, status } of sources.statuses()) {
          this.set({ server }, status.state === 'ready' || status.state === 'degraded' ? 1 : 0)
        }
      },
    })
    new Gauge({
      name: 'rag_console_server_state',
      help: "1 for the server's current state (connecting, ready, degraded, down, action_required, disabled)",
      labelNames: ['server', 'state'],
      registers,
      collect() {
        this.reset()
        for (const { server, status } of sources.statuses())
          this.set({ server, state: status.state }, 1)
      },
    })
    const rateLimit = (field: 'remaining' | 'limit', name: string, help: string): void => {
      new Gauge({
        name,
        help,
        labelNames: ['server'],
        registers,
        collect() {
          this.reset()
          for (const health of sources.health()) {
            const value = health.rateLimit?.[field]
            if (value !== undefined) this.set({ server: health.server }, value)
          }
        },
      })
    }
    rateLimit(
      'remaining',
      'rag_console_rate_limit_remaining',
      'Requests left in the current rate-limit window, as the server last reported',
    )
    rateLimit(
      'limit',
      'rag_console_rate_limit_limit',
      'Size of the rate-limit window, as the server last reported',
    )
    if (sources.oauth) oauthGauges(sources.oauth, sources.now ?? Date.now, registers)
    if (sources.rounds) roundGauges(sources.rounds, registers)
    this.canaryPassed = new Gauge({
      name: 'rag_console_canary_passed',
      help: 'Whether the last run of a canary query met all its expectations (1) or not (0)',
      labelNames: ['server', 'canary'],
      registers,
    })
    this.canaryRuns = new Counter({
      name: 'rag_console_canary_runs_total',
      help: 'Canary runs by result (pass, fail)',
      labelNames: ['server', 'canary', 'result'],
      registers,
    })
    this.canaryLatency = new Gauge({
      name: 'rag_console_canary_latency_seconds',
      help: "Latency of the last run of a canary query's search",
      labelNames: ['server', 'canary'],
      registers,
    })
    this.reloads = new Counter({
      name: 'rag_console_registry_reloads_total',
      help: 'Registry reloads that changed something (applied) or found the files invalid',
      labelNames: ['outcome'],
      registers,
    })
    this.lastReload = new Gauge({
      name: 'rag_console_registry_last_reload_success',
      help: '1 when the last reload applied, 0 when the files were invalid (the last good registry runs)',
      registers,
    })
    this.lastReloadAt = new Gauge({
      name: 'rag_console_registry_last_reload_timestamp_seconds',
      help: 'When the registry last reloaded (epoch seconds)',
      registers,
    })
    this.stops.push(
      sources.calls.add((record) => this.call(record)),
      sources.events.on('registry:updated', (e) => {
        this.reloaded('applied', e.at)
        for (const server of [...e.changed, ...e.removed]) this.forgetCanaries(server)
      }),
      sources.events.on('config:invalid', (e) => this.reloaded('invalid', e.at)),
    )
  }

  /** Records the outcome of one canary run. */
  canary(result: CanaryResult): void {
    const labels = { server: result.server, canary: result.canary }
    const names = this.canaries.get(result.server) ?? new Set<string>()
    this.canaries.set(result.server, names.add(result.canary))
    this.canaryPassed.set(labels, result.passed ? 1 : 0)
    this.canaryRuns.inc({ ...labels, result: result.passed ? 'pass' : 'fail' })
    this.canaryLatency.set(labels, result.latencyMs / 1000)
  }

  /** The exposition text and its content type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType }
  }

  dispose(): void {
    for (const stop of this.stops.splice(0)) stop()
    this.registry.clear()
  }

  private call(record: CallRecord): void {
    const { server, operation, traffic } = record
    this.calls.inc({ server, operation, outcome: record.code ?? 'ok', traffic })
    this.latency.observe({ server, operation, traffic }, record.ms / 1000)
  }

  private forgetCanaries(server: string): void {
    for (const canary of this.canaries.get(server) ?? []) {
      this.canaryPassed.remove({ server, canary })
      this.canaryLatency.remove({ server, canary })
    }
    this.canaries.delete(server)
  }

  private reloaded(outcome: 'applied' | 'invalid', at: number): void {
    this.reloads.inc({ outcome })
    this.lastReload.set(outcome === 'applied' ? 1 : 0)
    this.lastReloadAt.set(at / 1000)
  }
}

/**
 * Whether each OAuth sign-in holds (1, or 0: sign-in required, failed, or the access token
 * expired without being renewed) and when its access token expires. Servers that do not use
 * OAuth have no series.
 */
function oauthGauges(
  statuses: () => Promise<OAuthStatus[]>,
  now: () => number,
  registers: Registry[],
): void {
  // One read per scrape, shared by both gauges (a scrape collects every metric at once).
  let reading: Promise<OAuthStatus[]> | undefined
  const held = async (): Promise<OAuthStatus[]> =>
    (await (reading ??= statuses().finally(() => (reading = undefined)))).filter(
      (status) => status.state !== 'none' && status.state !== 'signing_in',
    )
  new Gauge({
    name: 'rag_console_oauth_signed_in',
    help: '1 while the OAuth sign-in holds; 0 when a person must sign in again (required, failed or expired)',
    labelNames: ['server'],
    registers,
    async collect() {
      const all = await held()
      this.reset()
      const at = now()
      for (const { serverId: server, state, expiresAt } of all) {
        const valid = state === 'signed_in' && (expiresAt === undefined || expiresAt > at)
        this.set({ server }, valid ? 1 : 0)
      }
    },
  })
  new Gauge({
    name: 'rag_console_oauth_token_expiry_timestamp_seconds',
    help: 'When the OAuth access token expires (epoch seconds); the console renews it in its last minute when it can',
    labelNames: ['server'],
    registers,
    async collect() {
      const all = await held()
      this.reset()
      for (const { serverId: server, expiresAt } of all) {
        if (expiresAt !== undefined) this.set({ server }, expiresAt / 1000)
      }
    },
  })
}

/** The monitor's period and the end of its last round, its heartbeat. */
function roundGauges(rounds: NonNullable<MetricsSources['rounds']>, registers: Registry[]): void {
  new Gauge({
    name: 'rag_console_monitor_interval_seconds',
    help: "The monitor's probe and canary period (--interval)",
    registers,
    collect() {
      this.set(rounds.intervalMs / 1000)
    },
  })
  new Gauge({
    name: 'rag_console_monitor_last_round_timestamp_seconds',
    help: 'When the monitor last finished a round, every server it checks checked (epoch seconds; its start until the first round ends)',
    registers,
    collect() {
      this.set((rounds.lastAt ?? rounds.startedAt) / 1000)
    },
  })
}
