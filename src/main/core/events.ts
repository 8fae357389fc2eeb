import type { EventMap, EventName } from '#shared/ipc/contract'

type Listener<E extends EventName> = (payload: EventMap[E]) => void
type AnyListener = <E extends EventName>(name: E, payload: EventMap[E]) => void

/**
 * Typed event bus of the core. Services emit; the IPC binding, the browser host and the CLI's
 * `watch` subscribe. A throwing listener never stops the others.
 */
export class EventBus {
  private readonly listeners = new Map<EventName, Set<Listener<never>>>()
  private readonly anyListeners = new Set<AnyListener>()

  on<E extends EventName>(name: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(name)
    if (!set) {
      set = new Set()
      this.listeners.set(name, set)
    }
    set.add(listener as Listener<never>)
    return () => set.delete(listener as Listener<never>)
  }

  /** Receives every event; used to forward them across a process boundary. */
  onAny(listener: AnyListener): () => void {
    this.anyListeners.add(listener)
    return () => this.anyListeners.delete(listener)
  }

  emit<E extends EventName>(name: E, payload: EventMap[E]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      safely(() => (listener as Listener<E>)(payload))
    }
    for (const listener of this.anyListeners) safely(() => listener(name, payload))
  }

  clear(): void {
    this.listeners.clear()
    this.anyListeners.clear()
  }
}

function safely(fn: () => void): void {
  try {
    fn()
  } catch (error) {
    console.error('event listener failed:', error)
  }
}
