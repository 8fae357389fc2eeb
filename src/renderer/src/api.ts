import { ConsoleError } from '#shared/errors'
import type {
  EventMap,
  EventName,
  InvokeArgs,
  InvokeChannel,
  InvokeResult,
} from '#shared/ipc/contract'
import type { ScopeOf } from '#shared/ipc/events'

/** Calls main through the contract; failures throw a ConsoleError with the string code. */
export async function call<C extends InvokeChannel>(
  channel: C,
  ...args: InvokeArgs<C>
): Promise<InvokeResult<C>> {
  const response = await window.ragConsole.invoke(channel, ...args)
  if (!response.ok) throw new ConsoleError(response.error)
  return response.value
}

/** Listens to an event from main; `scope` narrows an opt-in event to one server's. */
export function subscribe<E extends EventName>(
  event: E,
  listener: (payload: EventMap[E]) => void,
  scope?: ScopeOf<E>,
): () => void {
  return window.ragConsole.on(event, listener, scope)
}

export const openExternal = (url: string): Promise<boolean> => window.ragConsole.openExternal(url)
