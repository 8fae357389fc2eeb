import type { ServerConfig } from '#shared/config/schema'
import { ConsoleError, type ErrorInfo } from '#shared/errors'
import type { DialectInfo, ServerState } from '#shared/model/server'
import type { ActingUser } from '#shared/model/user'
import { detect, adapterFor } from '../dialects/registry'
import type { DialectAdapter } from '../dialects/types'
import type { CallObservers } from '../pool/call-observer'
import type { CallOptions, ServerSession } from '../pool/types'
import {
  AuditedSession,
  attemptEntry,
  type AuditContext,
  type AuditSink,
  type OperationOutcome,
} from './audited-session'
import { withBudget } from './budget'
import type { SessionPool } from './types'

/** What a server's part of an operation works with. */
export interface ServerCall {
  session: ServerSession
  adapter: DialectAdapter
  dialect: DialectInfo
  /** The acting user, the operation name and the abort signal, for every call. */
  options: CallOptions
}

/** A server's part of an operation as its `work` returns it: the value and what to audit. */
export interface ServerWork<T> {
  value: T
  resultCount?: number
  sourceErrors?: OperationOutcome['sourceErrors']
}

export interface ServerCallRequest {
  user: ActingUser
  operation: string
  sources: string[]
  /** Time for the whole part: waiting for the connection and every call. */
  budgetMs: number
  signal?: AbortSignal
  /** Started by the console itself, not a person: its audit lines say so. */
  automatic?: boolean
  /** How to pick the adapter (default {@link dialectOf}: `unsupported` when none fits). */
  dialect?: (session: ServerSession) => { adapter: DialectAdapter; info: DialectInfo }
}

/** A settled part: the value or the error, how long it took and the server's state after. */
export type ServerOutcome<T> = {
  server: string
  latencyMs: number
  status: ServerState
} & ({ ok: true; value: T } | { ok: false; error: ErrorInfo })

/** The dialect a session speaks, or an `unsupported` error saying why none fits. */
export function dialectOf(session: ServerSession): { adapter: DialectAdapter; info: DialectInfo } {
  const info = detect(session.tools, session.config.dialect)
  if (!info.id) {
    throw new ConsoleError({
      code: 'unsupported',
      origin: 'local',
      server: session.serverId,
      message: `server ${session.serverId}: ${info.reason}`,
    })
  }
  return { adapter: adapterFor(info.id), info }
}

/**
 * Runs one server's part of an operation: waits for its session within the budget, picks its
 * adapter, hands the work an audited session, and settles the audit lines when the calls end.
 * Never throws: failures come back as `{ok: false, error}`.
 */
export class ServerCalls {
  private readonly pendingAudit = new Set<Promise<void>>()

  constructor(
    private readonly deps: {
      pool: SessionPool
      audit: AuditSink
      /** Where operations are marked, so traces put each call under its operation. */
      operations?: Pick<CallObservers, 'operation'>
      now?: () => number
    },
  ) {}

  async run<T>(
    config: ServerConfig,
    request: ServerCallRequest,
    work: (call: ServerCall) => Promise<ServerWork<T>>,
  ): Promise<ServerOutcome<T>> {
    const now = this.deps.now ?? Date.now
    const started = now()
    const context: AuditContext = {
      user: request.user,
      operation: request.operation,
      sources: request.sources,
    }
    if (request.automatic) context.automatic = true
    let audited: AuditedSession | undefined
    const outcome: OperationOutcome = {}
    try {
      const done = await withBudget(config.id, request.budgetMs, request.signal, async (signal) => {
        const session = await this.deps.pool.session(config.id, {
          signal,
          timeoutMs: request.budgetMs,
        })
        // Out of budget or cancelled while connecting: make no call nobody will audit.
        signal.throwIfAborted()
        const { adapter, info } = (request.dialect ?? dialectOf)(session)
        audited = new AuditedSession(session, this.deps.audit, context, now)
        const options: CallOptions = {
          operation: request.operation,
          user: request.user,
          signal,
          timeoutMs: request.budgetMs,
        }
        return work({ session: audited, adapter, dialect: info, options })
      })
      outcome.resultCount = done.resultCount
      if (done.sourceErrors) outcome.sourceErrors = done.sourceErrors
      return {
        server: config.id,
        ok: true,
        value: done.value,
        latencyMs: now() - started,
        status: this.state(config),
      }
    } catch (failure) {
      const error = ConsoleError.from(failure)
      outcome.error = error
      const info = error.toInfo()
      info.server ??= config.id
      return {
        server: config.id,
        ok: false,
        error: info,
        latencyMs: now() - started,
        status: this.state(config),
      }
    } finally {
      this.audit(config.id, context, audited, outcome)
    }
  }

  /**
   * Runs one whole operation `name` (its servers' parts side by side; marked for traces) with the pool's protocol logs
   * held: their work waits until the operation has answered (LogDeferral, in
   * pool/protocol-log.ts). Held per operation, not per part: the first part to end would
   * otherwise set that work going while the others' replies still come in.
   */
  async operation<T>(name: string, work: () => Promise<T>): Promise<T> {
    const release = this.deps.pool.holdProtocolLogs?.()
    try {
      return await (this.deps.operations ? this.deps.operations.operation(name, work) : work())
    } finally {
      release?.()
    }
  }

  /** Resolves once every audit line of the operations run so far is written (flushed). */
  async idle(): Promise<void> {
    while (this.pendingAudit.size > 0) await Promise.allSettled([...this.pendingAudit])
    this.deps.audit.flush?.()
  }

  private audit(
    server: string,
    context: AuditContext,
    audited: AuditedSession | undefined,
    outcome: OperationOutcome,
  ): void {
    if (!audited) {
      // No session, so no call: one line still records the attempt and why it failed.
      this.deps.audit.record(attemptEntry(server, context, outcome, (this.deps.now ?? Date.now)()))
      return
    }
    const pending = audited.settle(outcome)
    this.pendingAudit.add(pending)
    void pending.finally(() => this.pendingAudit.delete(pending))
  }

  /** How long the server's last successful `operation` call took; undefined when unknown. */
  lastLatency(server: string, operation: string): number | undefined {
    return this.deps.pool.lastLatency?.(server, operation)
  }

  /** A server's connection state now; an unknown server reads as `disabled` (not in use). */
  state(config: ServerConfig | undefined): ServerState {
    if (!config) return 'disabled'
    try {
      return this.deps.pool.status(config.id).state
    } catch {
      return config.enabled ? 'connecting' : 'disabled'
    }
  }
}
