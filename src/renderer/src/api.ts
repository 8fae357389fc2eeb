import { ConsoleError } from '../../shared/errors'
import type {
  EventMap,
  EventName,
  InvokeArgs,
  InvokeChannel,
  InvokeResult,
} from '../../shared/ipc/contract'

/** Calls main through the contract; failures throw a ConsoleError with the string code. */
export async function call<C extends InvokeChannel>(
  channel: C,
  ...args: InvokeArgs<C>
): Promise<InvokeResult<C>> {
  const response = await window.ragConsole.invoke(channel, ...args)
  if (!response.ok) throw new ConsoleError(response.error)
  return response.value
}

export function subscribe<E extends EventName>(
  event: E,
  listener: (payload: EventMap[E]) => void,
): () => void {
  return window.ragConsole.on(event, listener)
}

export const openExternal = (url: string): Promise<boolean> => window.ragConsole.openExternal(url)
