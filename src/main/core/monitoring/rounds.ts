import type { PoolServerStatus } from '#shared/ipc/servers'
import type { CallObservers } from '../pool/call-observer'

/** States in which the pool checks nothing by itself: off, or waiting for a person to sign in. */
const UNCHECKED = new Set(['disabled', 'action_required'])

export interface ProbeRoundsDeps {
  calls: CallObservers
  statuses(): PoolServerStatus[]
  /** The monitor's period: a round can end at most once per period. */
  intervalMs: number
  now?: () => number
}

/**
 * The monitor's rounds: a round ends at the first tick (once per interval) by which every
 * server the pool checks by itself has been checked (a probe, call or connect attempt measured)
 * since the previous round ended. The end of the last round is the monitor's heartbeat: it
 * stops moving when probing stalls, even while `/metrics` still answers. A server that is off
 * or waiting for a sign-in is not waited for; a server that is down counts once its next
 * reconnect attempt (backoff up to a minute) was measured.
 */
export class ProbeRounds {
  /** When the last round ended (epoch ms); undefined until the first one has. */
  lastAt: number | undefined
  count = 0
  /** When the rounds began (epoch ms). */
  readonly startedAt: number
  /** Resolves when the first round has ended. */
  readonly first: Promise<void>
  private readonly checked = new Set<string>()
  private readonly timer: ReturnType<typeof setInterval>
  private readonly stop: () => void
  private firstEnded!: () => void

  constructor(private readonly deps: ProbeRoundsDeps) {
    this.startedAt = (deps.now ?? Date.now)()
    this.first = new Promise((resolve) => (this.firstEnded = resolve))
    this.stop = deps.calls.add((record) => this.checked.add(record.server))
    this.timer = setInterval(() => this.tick(), deps.intervalMs)
    this.timer.unref()
  }

  get intervalMs(): number {
    return this.deps.intervalMs
  }

  dispose(): void {
    this.stop()
    clearInterval(this.timer)
  }

  private tick(): void {
    for (const { server, status } of this.deps.statuses()) {
      if (!UNCHECKED.has(status.state) && !this.checked.has(server)) return
    }
    this.checked.clear()
    this.lastAt = (this.deps.now ?? Date.now)()
    this.count += 1
    if (this.count === 1) this.firstEnded()
  }
}
