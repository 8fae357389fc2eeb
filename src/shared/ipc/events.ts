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
 * search over 500 servers logs thousands of protocol messages). A page asks while it listens
 * to one: its bridge sends main the whole set whenever it changes, and again on reconnecting.
 */
export const OPT_IN_EVENTS = ['workbench:protocol'] as const satisfies readonly EventName[]

export type OptInEvent = (typeof OPT_IN_EVENTS)[number]

export function isOptInEvent(name: string): name is OptInEvent {
  return (OPT_IN_EVENTS as readonly string[]).includes(name)
}

/** The events a page's subscription names, or null when it is not a list of opt-in events. */
export function parseSubscription(value: unknown): Set<OptInEvent> | null {
  if (!Array.isArray(value) || value.length > OPT_IN_EVENTS.length) return null
  const names = value.filter(
    (name): name is OptInEvent => typeof name === 'string' && isOptInEvent(name),
  )
  return names.length === value.length ? new Set(names) : null
}

/** Whether a page subscribed to `subscribed` gets the event `name`. */
export function pageWants(subscribed: ReadonlySet<OptInEvent>, name: EventName): boolean {
  return !isOptInEvent(name) || subscribed.has(name)
}
