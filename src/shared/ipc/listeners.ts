import {
  isEventName,
  isOptInEvent,
  OPT_IN_EVENTS,
  serverOf,
  type EventMap,
  type EventName,
  type OptIn,
  type ScopeOf,
} from './events'

type Listener = (payload: unknown) => void

interface Held {
  listener: Listener
  /** Only this server's events (opt-in events only). */
  server?: string
}

/**
 * A page's event listeners, as both bridges keep them (`window.ragConsole.on`). `onOptIn` hears
 * what the page's listeners of opt-in events ask for whenever that changes, for the bridge to
 * tell main: an event for every server when one listener takes them all, else the servers its
 * listeners are scoped to.
 */
export class PageListeners {
  private readonly listeners = new Map<EventName, Set<Held>>()
  private told = '[]'

  constructor(private readonly onOptIn: (wanted: OptIn[]) => void) {}

  on<E extends EventName>(
    event: E,
    listener: (payload: EventMap[E]) => void,
    scope?: ScopeOf<E>,
  ): () => void {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`)
    if (scope && !isOptInEvent(event)) throw new Error(`event ${event} has no scope`)
    let set = this.listeners.get(event)
    if (!set) this.listeners.set(event, (set = new Set()))
    const held: Held = scope
      ? { listener: listener as Listener, server: scope.server }
      : { listener: listener as Listener }
    set.add(held)
    if (isOptInEvent(event)) this.changed()
    return () => {
      if (set.delete(held) && isOptInEvent(event)) this.changed()
    }
  }

  /** Passes an event from main to its listeners (a scoped one only its server's). */
  emit(name: EventName, payload: unknown): void {
    const held = this.listeners.get(name)
    if (!held) return
    const server = isOptInEvent(name) ? serverOf(payload) : undefined
    for (const { listener, server: scoped } of held) {
      if (scoped === undefined || scoped === server) listener(payload)
    }
  }

  /** What the listeners of opt-in events wait for. */
  optedIn(): OptIn[] {
    const wanted: OptIn[] = []
    for (const event of OPT_IN_EVENTS) {
      const held = [...(this.listeners.get(event) ?? [])]
      if (held.length === 0) continue
      if (held.some((h) => h.server === undefined)) wanted.push(event)
      else for (const server of new Set(held.map((h) => h.server!))) wanted.push({ event, server })
    }
    return wanted
  }

  /** Tells the bridge when what the page asks for changed. */
  private changed(): void {
    const wanted = this.optedIn()
    const text = JSON.stringify(wanted)
    if (text === this.told) return
    this.told = text
    this.onOptIn(wanted)
  }
}
