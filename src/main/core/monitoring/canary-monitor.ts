import type { ServerConfig } from '#shared/config/schema'
import type { RegistryDiff, ReloadCanary } from '#shared/model/registry'
import type { Registry } from '../config/types'
import { canaryNames, runCanary, type CanaryResult, type CanaryServices } from './canaries'

/** Why a canary ran. */
export type CanaryTrigger = 'start' | 'reload' | 'schedule'

/** One canary run as the monitor reports it. */
export interface CanaryReport extends CanaryResult {
  trigger: CanaryTrigger
  /** It passed on its previous run and fails now. */
  regression: boolean
}

export interface CanaryMonitorDeps {
  registry: {
    current(): Registry
    onUpdated(listener: (registry: Registry, diff: RegistryDiff) => void): () => void
    history(): { at: number }[]
    annotateReload(at: number, canaries: ReloadCanary[]): boolean
  }
  /** Resolves once the pool has taken in the latest registry. */
  poolIdle(): Promise<void>
  services: CanaryServices
  /** Every run, as it finishes. */
  onReport(report: CanaryReport): void
  /** Period of the scheduled runs; 0: only after reloads. */
  intervalMs: number
}

/**
 * Runs every server's canaries on a schedule and after each reload that adds or changes the
 * server; a canary that passed before and fails after a reload is a regression, recorded on that
 * reload's history entry next to the diff that caused it. One run per server at a time.
 */
export class CanaryMonitor {
  private readonly last = new Map<string, boolean>()
  private readonly busy = new Set<string>()
  /** Every run of a server's canaries still going. */
  private readonly running = new Set<Promise<unknown>>()
  private timer: ReturnType<typeof setInterval> | undefined
  private stop: (() => void) | undefined
  private disposed = false
  private draining = false

  constructor(private readonly deps: CanaryMonitorDeps) {}

  /**
   * Runs every canary once (recorded on the reload that loaded the registry), then on the
   * schedule and after reloads.
   */
  async start(): Promise<void> {
    const loadedAt = this.deps.registry.history().at(-1)?.at
    this.stop = this.deps.registry.onUpdated((registry, diff) => {
      // The pool heard of this registry before us (it subscribed first): wait until it applied.
      const at = this.deps.registry.history().at(-1)?.at
      const touched = new Set([...diff.added, ...diff.changed])
      for (const id of diff.removed) this.forget(id)
      void this.afterReload(
        registry.servers.filter((s) => touched.has(s.id)),
        at,
      )
    })
    if (this.deps.intervalMs > 0) {
      this.timer = setInterval(() => void this.runAll('schedule'), this.deps.intervalMs)
      this.timer.unref()
    }
    this.annotate(loadedAt, await this.runAll('start'))
  }

  /** Runs the canaries of every server of the registry. */
  async runAll(trigger: CanaryTrigger): Promise<CanaryReport[]> {
    const servers = this.deps.registry.current().servers
    return (await Promise.all(servers.map((s) => this.runServer(s, trigger)))).flat()
  }

  /**
   * Starts no new run and resolves once the runs in progress have reported, or after `limitMs`
   * (whatever is still running then is abandoned by {@link dispose}).
   */
  async drain(limitMs: number): Promise<void> {
    this.stopStarting()
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => (timer = setTimeout(resolve, limitMs))),
    ])
    clearTimeout(timer)
  }

  dispose(): void {
    this.disposed = true
    this.stopStarting()
  }

  private stopStarting(): void {
    this.draining = true
    this.stop?.()
    if (this.timer) clearInterval(this.timer)
  }

  private async afterReload(servers: ServerConfig[], at: number | undefined): Promise<void> {
    await this.deps.poolIdle()
    this.annotate(at, (await Promise.all(servers.map((s) => this.runServer(s, 'reload')))).flat())
  }

  private annotate(at: number | undefined, reports: CanaryReport[]): void {
    if (at === undefined || reports.length === 0 || this.disposed) return
    this.deps.registry.annotateReload(
      at,
      reports.map((r) => ({
        server: r.server,
        canary: r.canary,
        passed: r.passed,
        regression: r.regression,
        failures: r.failures.map((f) => f.message),
      })),
    )
  }

  private runServer(server: ServerConfig, trigger: CanaryTrigger): Promise<CanaryReport[]> {
    const canaries = server.enabled ? (server.canaries ?? []) : []
    // A scheduled run waits for the one in progress to end instead of piling up.
    if (
      canaries.length === 0 ||
      this.draining ||
      (trigger === 'schedule' && this.busy.has(server.id))
    )
      return Promise.resolve([])
    const run = this.runCanaries(server, canaries, trigger)
    this.running.add(run)
    const done = (): boolean => this.running.delete(run)
    void run.then(done, done)
    return run
  }

  private async runCanaries(
    server: ServerConfig,
    canaries: NonNullable<ServerConfig['canaries']>,
    trigger: CanaryTrigger,
  ): Promise<CanaryReport[]> {
    this.busy.add(server.id)
    try {
      const reports: CanaryReport[] = []
      const names = canaryNames(canaries)
      for (const [i, canary] of canaries.entries()) {
        // Draining: the canary in progress reports, no further one starts.
        if (this.draining && i > 0) break
        const result = await runCanary(this.deps.services, server, canary, names[i])
        if (this.disposed) break
        const key = `${server.id}\u0000${result.canary}`
        const regression = this.last.get(key) === true && !result.passed
        this.last.set(key, result.passed)
        const report = { ...result, trigger, regression }
        reports.push(report)
        this.deps.onReport(report)
      }
      return reports
    } finally {
      this.busy.delete(server.id)
    }
  }

  private forget(server: string): void {
    for (const key of this.last.keys()) if (key.startsWith(`${server}\u0000`)) this.last.delete(key)
  }
}
