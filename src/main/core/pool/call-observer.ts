import { AsyncLocalStorage } from 'node:async_hooks'
import { toErrorInfo, type ErrorCode, type ErrorOrigin } from '#shared/errors'

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

/** One operation a person (or a canary) started, in progress: the parent of the calls it makes. */
export interface OperationScope {
  id: number
  /** `search`, `discover`, `synthesize`, `verify`. */
  name: string
  /** Wall-clock start (epoch ms). */
  startedAt: number
  /** The operation this one runs inside, if any. */
  parent?: OperationScope
}

/** Hears operations begin and end (traces). */
export interface OperationObserver {
  start(scope: OperationScope): void
  /** `code`: the error the whole operation failed with (per-server failures are its calls'). */
  end(scope: OperationScope, endedAt: number, code?: ErrorCode): void
}

/**
 * Fans call records out to whoever listens (metrics, traces); a throwing one stops no other.
 * Also tells which operation a call belongs to: the calls made inside {@link operation}, however
 * deep in its async work, find it through {@link current}.
 */
export class CallObservers {
  private readonly listeners = new Set<CallObserver>()
  private readonly operations = new Set<OperationObserver>()
  private readonly scopes = new AsyncLocalStorage<OperationScope>()
  private nextScope = 0

  /** Adds a listener; returns its removal. */
  add(listener: CallObserver): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Adds an operation listener; returns its removal. */
  addOperations(observer: OperationObserver): () => void {
    this.operations.add(observer)
    return () => this.operations.delete(observer)
  }

  /**
   * Runs `work` as one operation. Free while nobody listens to operations: no scope is kept.
   */
  async operation<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (this.operations.size === 0) return work()
    const parent = this.scopes.getStore()
    const scope: OperationScope = {
      id: ++this.nextScope,
      name,
      startedAt: Date.now(),
      ...(parent ? { parent } : {}),
    }
    this.tell((o) => o.start(scope))
    try {
      const value = await this.scopes.run(scope, work)
      this.tell((o) => o.end(scope, Date.now()))
      return value
    } catch (error) {
      this.tell((o) => o.end(scope, Date.now(), toErrorInfo(error).code))
      throw error
    }
  }

  /** The operation the running code belongs to, if any. */
  current(): OperationScope | undefined {
    return this.scopes.getStore()
  }

  private tell(each: (observer: OperationObserver) => void): void {
    for (const observer of this.operations) {
      try {
        each(observer)
      } catch {
        // A trace sink must never break an operation.
      }
    }
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
