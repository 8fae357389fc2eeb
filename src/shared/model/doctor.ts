import type { ErrorInfo } from '../errors'
import type { DialectId } from './server'

/** How one Doctor check ended. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'not_applicable'

/** What a check sent, what came back and what the spec expects (secrets redacted, long replies cut). */
export interface CheckEvidence {
  /** The request(s) sent, as JSON-RPC messages (plus URL and header names for raw HTTP). */
  request?: unknown
  /** The reply or error received. */
  reply?: unknown
  /** What the spec section asks for. */
  expected: string
  /** What the server did, in words. */
  found: string
  /**
   * A trial call Doctor did not make because nothing says the tool only reads (Doctor calls
   * only its family's read tools, tools annotated `readOnlyHint: true` and the mapped tool):
   * what it would have sent, and how a person can send it.
   */
  offered?: OfferedCall
}

/** A call Doctor offers instead of making it. */
export interface OfferedCall {
  tool: string
  arguments: Record<string, unknown>
  /** Why it was not made, in words. */
  reason: string
  /** The same call as a `rag-console call` command line. */
  command: string
}

/** One check of one server. */
export interface DoctorCheckResult {
  /** Stable id, e.g. `ragbox.silence`. */
  id: string
  title: string
  /** The spec section the rule comes from, e.g. `spec 003 § query_knowledge`. */
  spec: string
  status: CheckStatus
  evidence: CheckEvidence
  durationMs: number
}

/** Every check of one server, as run by one user at one time. */
export interface ServerDoctorReport {
  server: string
  /**
   * The family the checks were chosen for; on a report with `error`, the family the server is
   * configured or was detected as. Null when none fits or none is known.
   */
  dialect: DialectId | null
  /** ISO time the run started. */
  at: string
  /** The acting user the probes ran as. */
  user: string
  checks: DoctorCheckResult[]
  /** Why the checks could not run (not connected, no dialect, unknown server). */
  error?: ErrorInfo
}

/** A Doctor run over one or more servers (`doctor:run`, `doctor:last`, `rag-console doctor`). */
export interface DoctorRun {
  servers: ServerDoctorReport[]
}
