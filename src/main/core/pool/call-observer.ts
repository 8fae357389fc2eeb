import type { ErrorCode, ErrorOrigin } from '../../../shared/errors'

/**
 * One finished call to a server as the pool measured it (the same moment its health records
 * it): names and numbers only. Never arguments, results, headers or error messages, so metrics
 * and traces built from it cannot carry a user's query or a credential.
 */
export interface CallRecord {
  server: string
  /** What the console did: `search`, `verify`, `connect`, `ping`, `tools/list`, … */
  operation: string
  /** The JSON-RPC method (`connect` for a connection attempt). */
  method: string
  /** The tool of a `tools/call`. */
  tool?: string
  transport: 'http' | 'sse' | 'stdio'
  /** A health probe of the pool, not a call anyone asked for. */
  probe?: boolean
  ms: number
  /** Absent when the call succeeded. */
  code?: ErrorCode
  /** Whose fault a failure was. */
  origin?: ErrorOrigin
  /** Wall-clock end of the call (epoch ms). */
  endedAt: number
}

export type CallObserver = (record: CallRecord) => void

/** Fans call records out to whoever listens (metrics, traces); a throwing one stops no other. */
export class CallObservers {
  private readonly listeners = new Set<CallObserver>()

  /** Adds a listener; returns its removal. */
  add(listener: CallObserver): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  readonly emit = (record: CallRecord): void => {
    for (const listener of this.listeners) {
      try {
        listener(record)
      } catch {
        // A metrics sink must never break a call.
      }
    }
  }
}
