import type { ServerConfig } from '#shared/config/schema'
import type { ConsoleError, ErrorInfo } from '#shared/errors'
import type { ActingUser } from '#shared/model/user'
import type { ServerInfo, ToolInfo } from '#shared/model/server'

/** Per-call options every pool call takes. */
export interface CallOptions {
  /**
   * Name recorded in health metrics and the audit log: `search`, `discover`, `synthesize`,
   * `verify`, `ping`, `tools/list`, `call`, …
   */
  operation: string
  /**
   * The acting user. HTTP transports send it as `x-user-id`, `x-session-tags` (JSON array) and
   * `x-human-uid` headers on this call only, to servers that get them (`sendsIdentity`);
   * dialects that take a `username` argument read it too.
   */
  user?: ActingUser
  /**
   * A negative probe (Doctor's unknown method, a refused argument): the call asks for an error
   * on purpose. An error the server answered with is the answer it wanted, so health, metrics
   * and the audit log take it as a success; a timeout or a lost connection is still a failure.
   * The call still rejects with the error.
   */
  expectsError?: true
  /** Cancels the call (and its HTTP request). */
  signal?: AbortSignal
  /** Overrides the server's `timeoutMs` for this call. */
  timeoutMs?: number
  /**
   * Reads a reply that arrived (JSON-RPC success, not `isError`) the way its dialect will, and
   * returns the error the server put inside it when the reply is nothing but that (a refusal
   * such as rag-tools-v1's `unauthorized_user`). The call is then recorded in the server's
   * health as failed with it; it still resolves with the raw result. Must not throw.
   */
  judge?: (result: unknown) => ErrorInfo | undefined
  /**
   * Reclassifies a failure the way its dialect will (a family's own JSON-RPC codes, such as
   * RAGbox's -32000 = unauthorized), before the server's health records it, so health and the
   * audit log keep the code the user sees. Returns the error unchanged when it means nothing
   * special; must not throw.
   */
  judgeError?: (error: ConsoleError) => ConsoleError
}

/**
 * A `tools/call` result exactly as the server sent it: standard fields when present, and every
 * non-standard key kept (rag-search puts `status` and `segments` at the top level).
 */
export interface RawToolResult {
  content?: unknown
  structuredContent?: unknown
  isError?: boolean
  [key: string]: unknown
}

/**
 * A live, ready connection to one server, as the dialect adapters and services use it. Every
 * call is measured, bounded by a timeout, limited by the server's concurrency cap, and fails
 * with a {@link ConsoleError} whose code says whose fault it was (see `shared/errors.ts`).
 */
export interface ServerSession {
  readonly serverId: string
  readonly config: ServerConfig
  /** Tools listed at connect time. */
  readonly tools: ToolInfo[]
  readonly serverInfo?: ServerInfo | undefined
  /** `tools/call`; an `isError` result resolves (the dialect decides what it means). */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RawToolResult>
  /** Any JSON-RPC request (e.g. `resources/list`); resolves with the raw `result`. */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<unknown>
}
