import type { ErrorCode, ErrorInfo } from '#shared/errors'
import type {
  LatencySample,
  LatencyStats,
  OperationHealth,
  RateLimitInfo,
  ServerHealth,
  ServerStatus,
} from '#shared/model/server'
import { isDiagnosticOperation } from './call-observer'
import { DEFAULT_SERIES, LatencySeries, quantileSorted, type SeriesOptions } from './health-series'

export interface HealthOptions {
  /** Samples older than this leave the latency and error-rate window. */
  windowMs: number
  /** At most this many samples per operation stay in the window. */
  maxSamples: number
  /** Length of the `recent` series drawn by the Health panel. */
  recent: number
  /** Time slices per operation for the charts (default 15 s × 120). */
  series?: SeriesOptions
}

/**
 * When a server that answers is shown as `degraded`: over its last `calls` calls (probes
 * included) in the window, at least `minCalls` of them and either `errorRate` of them failed
 * for a reason that is the server's (timeout, unreachable, server_error, protocol,
 * rate_limited, tool_error), or the p95 latency of the successful ones is at least `p95Ms`.
 * An exhausted rate limit (`X-RateLimit-Remaining: 0` before its reset) degrades it too.
 */
export interface DegradedThresholds {
  calls: number
  minCalls: number
  errorRate: number
  p95Ms: number
}

export const DEFAULT_HEALTH: HealthOptions = { windowMs: 5 * 60_000, maxSamples: 500, recent: 120 }
export const DEFAULT_DEGRADED: DegradedThresholds = {
  calls: 20,
  minCalls: 5,
  errorRate: 0.25,
  p95Ms: 5_000,
}

/** Failures that say something about the server's health (not the user's or the console's). */
const SERVER_FAULTS = new Set<ErrorCode>([
  'timeout',
  'unreachable',
  'server_error',
  'protocol',
  'rate_limited',
  'tool_error',
])

/** The operation a connection's handshake is measured as (`connect`, ms to ready). */
const CONNECT = 'connect'

interface Sample {
  at: number
  ms: number
  operation: string
  code?: ErrorCode
  error?: ErrorInfo
}

class OperationStats {
  samples: Sample[] = []
  readonly series: LatencySeries
  calls = 0
  errors: Partial<Record<ErrorCode, number>> = {}
  lastSuccessAt?: number
  lastErrorAt?: number
  lastError?: ErrorInfo

  constructor(series: SeriesOptions) {
    this.series = new LatencySeries(series)
  }

  add(sample: Sample, maxSamples: number): void {
    this.calls++
    this.series.add(sample.at, sample.ms, sample.code)
    this.samples.push(sample)
    if (this.samples.length > maxSamples) this.samples.shift()
    if (sample.code) {
      this.errors[sample.code] = (this.errors[sample.code] ?? 0) + 1
      this.lastErrorAt = sample.at
      if (sample.error) this.lastError = sample.error
    } else this.lastSuccessAt = sample.at
  }

  prune(before: number): void {
    while (this.samples.length > 0 && this.samples[0]!.at < before) this.samples.shift()
  }
}

/**
 * Passive and probe measurements of one server: per operation and overall latency quantiles
 * over a sliding window, call and error counts, uptime, rate-limit state and a short series of
 * recent samples. Latency quantiles cover successful calls; error rates skip cancellations.
 */
export class HealthTracker {
  private readonly operations = new Map<string, OperationStats>()
  private readonly overall: OperationStats
  private readonly recentSamples: LatencySample[] = []
  private rateLimit: RateLimitInfo | undefined
  private lastCheckAt: number | undefined
  /** When the server's state was first known (first connect or first failure). */
  private knownSince: number | undefined
  private upMs = 0
  /** operation → the latency of its last successful call. */
  private readonly lastOk = new Map<string, number>()
  private upSince: number | undefined
  private connectedSince: number | undefined
  /** Samples that count for degradation, and the number of the last failed or slow one. */
  private recorded = 0
  private lastTrouble = Number.NEGATIVE_INFINITY

  constructor(
    private readonly serverId: string,
    private readonly options: HealthOptions,
    private readonly now: () => number,
    private readonly degraded: DegradedThresholds = DEFAULT_DEGRADED,
  ) {
    this.overall = new OperationStats(this.seriesOptions)
  }

  private get seriesOptions(): SeriesOptions {
    return this.options.series ?? DEFAULT_SERIES
  }

  /**
   * One finished call; `error` absent for success. The console's own diagnostics (Doctor) are
   * kept in their operation's figures only: the overall ones, the recent samples and the
   * degraded state are the server's as its users meet it.
   */
  record(operation: string, ms: number, error?: ErrorInfo): void {
    const at = this.now()
    const sample: Sample = { at, ms, operation }
    if (error) {
      sample.code = error.code
      sample.error = error
    }
    let stats = this.operations.get(operation)
    if (!stats) {
      stats = new OperationStats(this.seriesOptions)
      this.operations.set(operation, stats)
    }
    stats.add(sample, this.options.maxSamples)
    if (!error) this.lastOk.set(operation, ms)
    if (isDiagnosticOperation(operation)) return
    this.overall.add(sample, this.options.maxSamples)
    this.recentSamples.push({ at, operation, ms: round(ms), ok: !error })
    if (this.recentSamples.length > this.options.recent) this.recentSamples.shift()
    // Counted like assess() counts: successes and the server's own failures.
    const fault = error !== undefined && SERVER_FAULTS.has(error.code)
    if (error && !fault) return
    this.recorded++
    if (fault || (ms >= this.degraded.p95Ms && operation !== CONNECT)) {
      this.lastTrouble = this.recorded
    }
  }

  /** How long the last successful call of `operation` took (ms); undefined before one. */
  lastLatency(operation: string): number | undefined {
    return this.lastOk.get(operation)
  }

  /** Records a status change, for uptime and `connectedSince`. */
  transition(status: ServerStatus): void {
    const at = this.now()
    const up = status.state === 'ready' || status.state === 'degraded'
    // Connecting says nothing about the server yet, so it does not count against its uptime.
    if (
      this.knownSince === undefined &&
      (up || status.state === 'down' || status.state === 'action_required')
    )
      this.knownSince = at
    if (up && this.upSince === undefined) {
      this.upSince = at
      this.connectedSince = at
    } else if (!up && this.upSince !== undefined) {
      this.upMs += at - this.upSince
      this.upSince = undefined
      this.connectedSince = undefined
    }
  }

  setRateLimit(info: RateLimitInfo): void {
    this.rateLimit = info
  }

  get rateLimitInfo(): RateLimitInfo | undefined {
    return this.rateLimit
  }

  /** A health probe ran. */
  checked(): void {
    this.lastCheckAt = this.now()
  }

  /** Why the server should be shown as degraded right now (thresholds as constructed). */
  assess(): { reason: string; lastError?: ErrorInfo } | undefined {
    const thresholds = this.degraded
    const now = this.now()
    const limited = this.rateLimitExhausted(now)
    if (limited) return { reason: limited }
    // Runs after every call: nothing failed or was slow lately, nothing to look at.
    if (this.recorded - this.lastTrouble >= thresholds.calls) return undefined
    // Newest first, only as far back as needed: this runs after every call.
    const window: Sample[] = []
    const since = now - this.options.windowMs
    const samples = this.overall.samples
    for (let i = samples.length - 1; i >= 0 && window.length < thresholds.calls; i--) {
      const sample = samples[i]!
      if (sample.at < since) break
      if (!sample.code || SERVER_FAULTS.has(sample.code)) window.unshift(sample)
    }
    if (window.length < thresholds.minCalls) return undefined
    const failed = window.filter((s) => s.code)
    if (failed.length / window.length >= thresholds.errorRate) {
      const last = failed[failed.length - 1]!
      const result: { reason: string; lastError?: ErrorInfo } = {
        reason: `${failed.length} of the last ${window.length} calls failed (${mostCommon(failed)})`,
      }
      if (last.error) result.lastError = last.error
      return result
    }
    const ok = callLatencies(window)
    const p95 = quantile(ok, 0.95)
    if (ok.length >= thresholds.minCalls && p95 >= thresholds.p95Ms) {
      return {
        reason: `slow: p95 ${Math.round(p95)} ms over the last ${ok.length} calls (threshold ${thresholds.p95Ms} ms)`,
      }
    }
    return undefined
  }

  private rateLimitExhausted(now: number): string | undefined {
    const info = this.rateLimit
    if (!info || info.remaining !== 0 || info.reset === undefined) return undefined
    // Servers send either an epoch time or seconds until the reset.
    const resetMs = info.reset > 1e9 ? info.reset * 1000 : info.at + info.reset * 1000
    if (resetMs <= now) return undefined
    return `rate limit exhausted until ${new Date(resetMs).toISOString()}`
  }

  private uptime(now: number): number | undefined {
    if (this.knownSince === undefined) return undefined
    const observed = now - this.knownSince
    const up = this.upMs + (this.upSince === undefined ? 0 : now - this.upSince)
    if (observed <= 0) return this.upSince === undefined ? 0 : 1
    return Math.min(1, up / observed)
  }

  snapshot(status: ServerStatus): ServerHealth {
    const now = this.now()
    const before = now - this.options.windowMs
    for (const stats of this.operations.values()) stats.prune(before)
    this.overall.prune(before)
    const health: ServerHealth = {
      server: this.serverId,
      status,
      operations: [...this.operations].map(([name, stats]) => operationHealth(name, stats, now)),
      overall: operationHealth('all', this.overall, now, callLatencies),
      recent: [...this.recentSamples],
      seriesBucketMs: this.seriesOptions.bucketMs,
      windowMs: this.options.windowMs,
    }
    const uptime = this.uptime(now)
    if (uptime !== undefined) health.uptime = uptime
    if (this.connectedSince !== undefined) health.connectedSince = this.connectedSince
    if (this.rateLimit) health.rateLimit = { ...this.rateLimit }
    if (this.lastCheckAt !== undefined) health.lastCheckAt = this.lastCheckAt
    return health
  }
}

/** The latency of successful calls: a (re)connect's handshake is not a call's time. */
const callLatencies = (samples: readonly Sample[]): number[] =>
  samples.filter((s) => !s.code && s.operation !== CONNECT).map((s) => s.ms)

function operationHealth(
  operation: string,
  stats: OperationStats,
  now: number,
  latencies: (samples: readonly Sample[]) => number[] = (samples) =>
    samples.filter((s) => !s.code).map((s) => s.ms),
): OperationHealth {
  const counted = stats.samples.filter((s) => s.code !== 'cancelled')
  const failed = counted.filter((s) => s.code).length
  const health: OperationHealth = {
    operation,
    latency: latency(latencies(stats.samples)),
    calls: stats.calls,
    errors: { ...stats.errors },
    errorRate: counted.length === 0 ? 0 : failed / counted.length,
    series: stats.series.snapshot(now),
  }
  if (stats.lastSuccessAt !== undefined) health.lastSuccessAt = stats.lastSuccessAt
  if (stats.lastErrorAt !== undefined) health.lastErrorAt = stats.lastErrorAt
  if (stats.lastError) health.lastError = stats.lastError
  if (isDiagnosticOperation(operation)) health.diagnostic = true
  return health
}

function latency(values: number[]): LatencyStats {
  if (values.length === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0 }
  const sorted = [...values].sort((a, b) => a - b)
  return {
    count: sorted.length,
    p50: round(quantileSorted(sorted, 0.5)),
    p95: round(quantileSorted(sorted, 0.95)),
    p99: round(quantileSorted(sorted, 0.99)),
    max: round(sorted[sorted.length - 1]!),
  }
}

function quantile(values: number[], q: number): number {
  return values.length === 0
    ? 0
    : quantileSorted(
        [...values].sort((a, b) => a - b),
        q,
      )
}

function mostCommon(samples: Sample[]): string {
  const counts = new Map<string, number>()
  for (const s of samples) counts.set(s.code!, (counts.get(s.code!) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0]
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000
