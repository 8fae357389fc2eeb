import {
  isEventName,
  isOptInEvent,
  OPT_IN_EVENTS,
  type EventMap,
  type EventName,
  type OptInEvent,
} from './events'

type Listener = (payload: unknown) => void

/**
 * A page's event listeners, as both bridges keep them (`window.ragConsole.on`). `onOptIn` hears
 * the opt-in events listened to whenever that set changes, for the bridge to tell main.
 */
export class PageListeners {
  private readonly listeners = new Map<EventName, Set<Listener>>()

  constructor(private readonly onOptIn: (events: OptInEvent[]) => void) {}

  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`)
    let set = this.listeners.get(event)
    if (!set) this.listeners.set(event, (set = new Set()))
    const first = set.size === 0
    set.add(listener as Listener)
    if (first && isOptInEvent(event)) this.onOptIn(this.optedIn())
    return () => {
      const last = set.delete(listener as Listener) && set.size === 0
      if (last && isOptInEvent(event)) this.onOptIn(this.optedIn())
    }
  }

  /** Passes an event from main to its listeners. */
  emit(name: EventName, payload: unknown): void {
    for (const listener of this.listeners.get(name) ?? []) listener(payload)
  }

  /** The opt-in events some listener waits for. */
  optedIn(): OptInEvent[] {
    return OPT_IN_EVENTS.filter((name) => (this.listeners.get(name)?.size ?? 0) > 0)
  }
}
