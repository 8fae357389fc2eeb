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
  /**
   * Whose call it was: `user` for what people (and the console on their behalf: discovery,
   * searches, checks, canaries, the Workbench) asked for, `diagnostic` for the console's own
   * checks of the server (Doctor, health probes).
   */
  traffic: Traffic
  /** A negative probe got the error it asked for (`code` says which); not a failure. */
  expected?: true
  ms: number
  /** Absent when the call succeeded. */
  code?: ErrorCode
  /** Whose fault a failure was. */
  origin?: ErrorOrigin
  /** Wall-clock end of the call (epoch ms). */
  endedAt: number
}

export type CallObserver = (record: CallRecord) => void

export type Traffic = 'user' | 'diagnostic'

/** Operations that are the console's own diagnostics of a server, kept apart from user traffic. */
const DIAGNOSTIC_OPERATIONS: ReadonlySet<string> = new Set(['doctor'])

/** Whether `operation` is one of the console's own diagnostics (Doctor). */
export const isDiagnosticOperation = (operation: string): boolean =>
  DIAGNOSTIC_OPERATIONS.has(operation)

/** Whose traffic a call of `operation` is (see {@link CallRecord.traffic}). */
export function trafficOf(operation: string, probe = false): Traffic {
  return probe || isDiagnosticOperation(operation) ? 'diagnostic' : 'user'
}

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
