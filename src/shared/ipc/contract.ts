import type { z } from 'zod'
import { appRequests, type AppResults } from './app'
import { authRequests, type AuthResults } from './auth'
import { doctorRequests, type DoctorResults } from './doctor'
import { elicitationRequests, type ElicitationResults } from './elicitation'
import { evaluationRequests, type EvaluationResults } from './evaluation'
import { registryRequests, type RegistryResults } from './registry'
import { profilesRequests, type ProfilesResults } from './profiles'
import { ragRequests, type RagResults } from './rag'
import { secretsRequests, type SecretsResults } from './secrets'
import { serversRequests, type ServersResults } from './servers'
import { workbenchRequests, type WorkbenchResults } from './workbench'

/**
 * The one IPC contract between the renderer and the main process.
 *
 * Each feature declares, in its own file, a map of request validators (zod), a results
 * interface and an events interface; they are merged here and in events.ts. Main implements
 * every channel (a missing handler does not compile) and validates every request against
 * these schemas.
 */
export const invokeRequests = {
  ...appRequests,
  ...registryRequests,
  ...secretsRequests,
  ...profilesRequests,
  ...serversRequests,
  ...ragRequests,
  ...workbenchRequests,
  ...doctorRequests,
  ...evaluationRequests,
  ...authRequests,
  ...elicitationRequests,
}

export interface InvokeResults
  extends
    AppResults,
    RegistryResults,
    SecretsResults,
    ProfilesResults,
    ServersResults,
    RagResults,
    WorkbenchResults,
    DoctorResults,
    EvaluationResults,
    AuthResults,
    ElicitationResults {}

export type InvokeChannel = keyof typeof invokeRequests
export type InvokeRequest<C extends InvokeChannel> = z.input<(typeof invokeRequests)[C]>
export type ParsedRequest<C extends InvokeChannel> = z.output<(typeof invokeRequests)[C]>
export type InvokeResult<C extends InvokeChannel> = InvokeResults[C]

export type InvokeArgs<C extends InvokeChannel> =
  undefined extends InvokeRequest<C> ? [request?: InvokeRequest<C>] : [request: InvokeRequest<C>]

// Every channel has a request schema and a result type, and nothing else.
type SameKeys<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : never
const _contractIsClosed: SameKeys<InvokeChannel, keyof InvokeResults> = true
void _contractIsClosed

/**
 * One handler per channel, as the main process implements the contract (`createHandlers`):
 * a channel without a handler does not compile.
 */
export type ChannelHandlers = {
  [C in InvokeChannel]: (request: ParsedRequest<C>) => Promise<InvokeResult<C>> | InvokeResult<C>
}

export function isInvokeChannel(value: unknown): value is InvokeChannel {
  return typeof value === 'string' && Object.hasOwn(invokeRequests, value)
}

export type { EventMap, EventName } from './events'
