import type { ServerConfig } from '#shared/config/schema'
import type { ErrorInfo } from '#shared/errors'
import type { CheckEvidence, CheckStatus } from '#shared/model/doctor'
import type { DialectInfo, ServerInfo, ToolInfo } from '#shared/model/server'
import type { ActingUser } from '#shared/model/user'
import type { DialectAdapter } from '../../dialects/types'
import type { CallOptions, RawToolResult, ServerSession } from '../../pool/types'

/** A request and what came back: the reply, or the error the call ended with. */
export interface Exchange<T = unknown> {
  request: unknown
  reply?: T
  error?: ErrorInfo
}

/** A raw HTTP reply to one JSON-RPC POST. */
export interface WireReply {
  status: number
  /** Response headers, lower-case names. */
  headers: Record<string, string>
  /** The JSON body (the first `data:` event of an event stream), or the text when not JSON. */
  body: unknown
}

/**
 * One JSON-RPC POST straight to an HTTP server, for rules the pool hides on purpose (headers,
 * per-method endpoints, a request without the key). The config's headers (secrets resolved)
 * and the acting user's headers are sent unless `bare`.
 */
export type WirePost = (
  message: { method: string; params?: Record<string, unknown> },
  options?: { url?: string; bare?: boolean } & Provoking,
) => Promise<Exchange<WireReply>>

/**
 * A probe that asks for an error on purpose (an unknown method, a refused argument, a request
 * without the key): the error the server answers with is not a failure of the server, in its
 * health, the metrics or the audit log.
 */
export interface Provoking {
  expectError?: true
}

/** What a check works with: one server, its live session, as the acting profile. */
export interface Probe {
  config: ServerConfig
  /** The pool's session (audited), for the dialect adapter. */
  session: ServerSession
  /** The server's URL with references resolved (HTTP/SSE servers only). */
  url?: string
  dialect: DialectInfo
  adapter: DialectAdapter
  /** Tools listed at connect time. */
  tools: ToolInfo[]
  serverInfo?: ServerInfo
  user: ActingUser
  /** Call options of the acting user (operation `doctor`, this check's deadline). */
  options: CallOptions
  /** `tools/call` through the pool; never throws. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    user?: ActingUser,
    how?: Provoking,
  ): Promise<Exchange<RawToolResult>>
  /** Any JSON-RPC request through the pool; never throws. */
  request(method: string, params?: Record<string, unknown>, how?: Provoking): Promise<Exchange>
  /** Raw HTTP for servers reached over streamable HTTP; undefined for stdio and SSE. */
  post?: WirePost
}

/** How a check ended and why. */
export interface Verdict {
  status: CheckStatus
  evidence: CheckEvidence
}

/** One rule of a family's contract, probed read-only and cheaply. */
export interface DoctorCheck {
  /** Stable id: `<family or protocol>.<rule>`; the demo servers' `--break` takes the same. */
  id: string
  title: string
  /** The spec section it comes from. */
  spec: string
  /**
   * A rule named so the report says why it is not probed (provoking it would cost the server
   * more than a check may); such a check always ends `not_applicable` and has no `--break`.
   */
  notProvoked?: true
  run(probe: Probe): Promise<Verdict>
}

export const verdict = (
  status: CheckStatus,
  expected: string,
  found: string,
  exchange?: { request?: unknown; reply?: unknown; error?: ErrorInfo },
): Verdict => {
  const evidence: CheckEvidence = { expected, found }
  if (exchange?.request !== undefined) evidence.request = exchange.request
  if (exchange?.error !== undefined) evidence.reply = { error: exchange.error }
  else if (exchange?.reply !== undefined) evidence.reply = exchange.reply
  return { status, evidence }
}
