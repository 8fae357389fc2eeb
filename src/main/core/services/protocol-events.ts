import type { ProtocolEntry } from '#shared/ipc/workbench'
import type { EventBus } from '../events'

/** How often new protocol entries are announced, at most (ms). */
const INTERVAL_MS = 250

/**
 * Announces new and updated protocol log entries as `workbench:protocol` events: one event per server and
 * interval, so a busy server does not flood the renderer with one message per JSON-RPC message.
 */
export class ProtocolEvents {
  private queued = new Map<string, ProtocolEntry[]>()
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly events: EventBus) {}

  add(server: string, entry: ProtocolEntry): void {
    const list = this.queued.get(server) ?? []
    // An entry announced again (its HTTP exchange arrived) while still queued goes once.
    if (!list.includes(entry)) list.push(entry)
    this.queued.set(server, list)
    this.timer ??= setTimeout(() => this.flush(), INTERVAL_MS)
    this.timer.unref?.()
  }

  /** Drops what is queued and stops the timer. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.queued.clear()
  }

  private flush(): void {
    this.timer = undefined
    const queued = this.queued
    this.queued = new Map()
    for (const [server, entries] of queued)
      this.events.emit('workbench:protocol', { server, entries })
  }
}
