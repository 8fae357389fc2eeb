import type { AppEvents } from './app'
import type { AuthEvents } from './auth'
import type { DoctorEvents } from './doctor'
import type { ElicitationEvents } from './elicitation'
import type { EvaluationEvents } from './evaluation'
import type { RegistryEvents } from './registry'
import type { ProfilesEvents } from './profiles'
import type { RagEvents } from './rag'
import type { SecretsEvents } from './secrets'
import type { ServersEvents } from './servers'
import type { WorkbenchEvents } from './workbench'

/** Every event main pushes to the renderer, merged from the feature files. */
export interface EventMap
  extends
    AppEvents,
    RegistryEvents,
    SecretsEvents,
    ProfilesEvents,
    ServersEvents,
    RagEvents,
    WorkbenchEvents,
    DoctorEvents,
    EvaluationEvents,
    AuthEvents,
    ElicitationEvents {}

export type EventName = keyof EventMap

/** Runtime list of event names (checked against EventMap at compile time). */
export const EVENT_NAMES = Object.keys({
  'app:notice': true,
  'app:show-panel': true,
  'registry:updated': true,
  'config:invalid': true,
  'registry:canaries': true,
  'secrets:changed': true,
  'profiles:changed': true,
  'selection:changed': true,
  'server:status': true,
  'search:progress': true,
  'access:progress': true,
  'discovery:missing': true,
  'workbench:protocol': true,
  'doctor:progress': true,
  'eval:run-started': true,
  'eval:progress': true,
  'eval:run-finished': true,
  'eval:sets-changed': true,
  'auth:changed': true,
  'elicit:request': true,
  'elicit:closed': true,
} satisfies Record<EventName, true>) as EventName[]

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as string[]).includes(value)
}

/**
 * Events main sends only to the pages that asked for them: costly ones that one view shows (a
 * search over 500 servers logs thousands of protocol messages). Each is about one server (its
 * payload's `server`), and a page asks for it while it listens to one: for every server, or for
 * the servers it shows. Its bridge sends main the whole set whenever it changes, and again on
 * reconnecting.
 */
export const OPT_IN_EVENTS = ['workbench:protocol'] as const satisfies readonly EventName[]

export type OptInEvent = (typeof OPT_IN_EVENTS)[number]

/** One thing a page asks for: an opt-in event from every server, or from one server. */
export type OptIn = OptInEvent | { event: OptInEvent; server: string }

/**
 * Events that report the progress of one request, by the channel that starts it and the field
 * naming it in both: only the page that made the request shows them (another page's panel
 * ignores a search or batch it did not start), so a host with several pages sends them only
 * there.
 */
export const PROGRESS_EVENTS = {
  'search:progress': { channel: 'search:run', key: 'searchId' },
  'access:progress': { channel: 'access:check-all', key: 'batchId' },
} as const satisfies Partial<Record<EventName, { channel: string; key: string }>>

/** Narrows a listener of an opt-in event to one server's events. */
export interface EventScope {
  server: string
}

/** The scope a listener of `E` may take: only opt-in events have one. */
export type ScopeOf<E extends EventName> = E extends OptInEvent ? EventScope : never

/** What a page asked for: per opt-in event, every server (`true`) or the servers named. */
export type Subscription = ReadonlyMap<OptInEvent, true | ReadonlySet<string>>

/** Items one subscription may hold: a page shows a few logs at once, never hundreds. */
const MAX_SUBSCRIPTION_ITEMS = 64
/** Longer than any server id (the registry's ids are shorter still). */
const MAX_SERVER_ID = 256

export function isOptInEvent(name: string): name is OptInEvent {
  return (OPT_IN_EVENTS as readonly string[]).includes(name)
}

/** The subscription a page's list names, or null when it is not a list of {@link OptIn}s. */
export function parseSubscription(value: unknown): Subscription | null {
  if (!Array.isArray(value) || value.length > MAX_SUBSCRIPTION_ITEMS) return null
  const wanted = new Map<OptInEvent, true | Set<string>>()
  for (const item of value as unknown[]) {
    if (typeof item === 'string' && isOptInEvent(item)) {
      wanted.set(item, true)
      continue
    }
    if (!isScoped(item)) return null
    const held = wanted.get(item.event)
    if (held === true) continue
    wanted.set(item.event, new Set(held).add(item.server))
  }
  return wanted
}

function isScoped(item: unknown): item is { event: OptInEvent; server: string } {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false
  const { event, server, ...rest } = item as Record<string, unknown>
  return (
    Object.keys(rest).length === 0 &&
    typeof event === 'string' &&
    isOptInEvent(event) &&
    typeof server === 'string' &&
    server.length > 0 &&
    server.length <= MAX_SERVER_ID
  )
}

/** Whether a page with `subscription` gets the event `name` with `payload`. */
export function pageWants(subscription: Subscription, name: EventName, payload: unknown): boolean {
  if (!isOptInEvent(name)) return true
  const wanted = subscription.get(name)
  return wanted === true || (wanted?.has(serverOf(payload)) ?? false)
}

/** The server an opt-in event is about. */
export function serverOf(payload: unknown): string {
  const server = (payload as { server?: unknown } | null)?.server
  return typeof server === 'string' ? server : ''
}
