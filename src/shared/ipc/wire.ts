import type { ErrorInfo } from '../errors'
import type { InvokeArgs, InvokeChannel, InvokeResult } from './contract'
import type { EventMap, EventName, ScopeOf } from './events'

/**
 * What crosses the process boundary. This file and events.ts carry no runtime dependencies:
 * the sandboxed preload and the browser bridge import only them.
 */

/** Prefix of every channel on the wire; main refuses anything else. */
export const IPC_PREFIX = 'rag:'
/** The single channel main uses to push events to the renderer. */
export const IPC_EVENT_CHANNEL = 'rag:event'
/** Where a page tells main which opt-in events it wants now (a list of `OptIn`, see events.ts). */
export const IPC_SUBSCRIBE_CHANNEL = 'rag:subscribe'

/** What crosses the wire for every invoke: errors keep their string code. */
export type IpcResponse<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo }

export interface IpcEvent<E extends EventName = EventName> {
  name: E
  payload: EventMap[E]
}

/** The one object the preload (or the browser host's bridge) puts on `window.ragConsole`. */
export interface RagConsoleApi {
  invoke<C extends InvokeChannel>(
    channel: C,
    ...args: InvokeArgs<C>
  ): Promise<IpcResponse<InvokeResult<C>>>
  /** Listens to an event; `scope` narrows an opt-in event to one server's (main sends no other). */
  on<E extends EventName>(
    event: E,
    listener: (payload: EventMap[E]) => void,
    scope?: ScopeOf<E>,
  ): () => void
  /**
   * Opens an http(s) link in the system browser. Only honoured during a user click (transient
   * user activation); resolves false when refused.
   */
  openExternal(url: string): Promise<boolean>
}
