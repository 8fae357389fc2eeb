import { mkdirSync, watch, type FSWatcher } from 'node:fs'
import type { EvalRunStatus } from '#shared/model/evaluation'
import type { EventBus } from '../../events'
import type { RunStore } from './run-store'

const SUMMARY = '.summary.json'
/** Bursts of file events (write, rename) are read once. */
const SETTLE_MS = 30
/** How often a run of another process is checked for a process that has gone away. */
const STALE_CHECK_MS = 5_000

/**
 * Follows the runs folder for runs of other processes on the same data folder (`rag-console
 * eval` while the app is open): a run's summary file is rewritten as it goes, and each change is
 * announced as that process's own events would be: `eval:run-started`, `eval:progress`,
 * `eval:run-finished` (also when its process ended without storing it).
 */
export class RunWatcher {
  private readonly watcher: FSWatcher | undefined
  private readonly pending = new Map<string, NodeJS.Timeout>()
  /** The last status seen of each run of another process. */
  private readonly seen = new Map<string, EvalRunStatus>()
  private readonly staleCheck: NodeJS.Timeout

  constructor(
    dir: string,
    private readonly runs: RunStore,
    private readonly events: EventBus,
    /** Runs of this process: their own events say what happens to them. */
    private readonly own: (runId: string) => boolean,
  ) {
    for (const summary of runs.list()) this.seen.set(summary.id, summary.status)
    try {
      mkdirSync(dir, { recursive: true })
      this.watcher = watch(dir, (_event, file) => {
        const name = file?.toString()
        if (!name || name.startsWith('.') || !name.endsWith(SUMMARY)) return
        this.settle(name.slice(0, -SUMMARY.length))
      })
      this.watcher.on('error', () => this.watcher?.close())
    } catch {
      // No watching (a read-only data folder): runs of other processes show when listed.
      this.watcher = undefined
    }
    this.staleCheck = setInterval(() => this.checkRunning(), STALE_CHECK_MS)
    this.staleCheck.unref()
  }

  close(): void {
    this.watcher?.close()
    clearInterval(this.staleCheck)
    for (const timer of this.pending.values()) clearTimeout(timer)
    this.pending.clear()
  }

  private settle(id: string): void {
    clearTimeout(this.pending.get(id))
    this.pending.set(
      id,
      setTimeout(() => {
        this.pending.delete(id)
        this.changed(id)
      }, SETTLE_MS),
    )
  }

  /** Runs of other processes still running: a process that went away ends them as failed. */
  private checkRunning(): void {
    for (const [id, status] of this.seen) if (status === 'running') this.changed(id)
  }

  private changed(id: string): void {
    if (this.own(id)) return
    const summary = this.runs.summary(id)
    if (!summary) return
    const before = this.seen.get(id)
    this.seen.set(id, summary.status)
    if (summary.status === 'running') {
      if (before !== 'running') this.events.emit('eval:run-started', { run: summary })
      this.events.emit('eval:progress', {
        runId: id,
        done: summary.done,
        total: summary.total,
        failures: summary.failures,
      })
    } else if (before !== summary.status) {
      // Ended, or first seen ended (a run shorter than the file events' settling).
      this.events.emit('eval:run-finished', { run: summary })
    }
  }
}
