import { SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { ConsoleError, codeFromWords, type ErrorCode as ConsoleCode } from '#shared/errors'
import type { CallContext, RpcErrorPayload } from './call-context'
import { AD_HOC_ORIGIN } from '../auth/sign-in-error'

/** What the classifier knows besides the error itself. */
export interface ClassifyInput {
  serverId: string
  operation: string
  /** The call's wire record; decides whose fault it was. */
  call?: CallContext
  timeoutMs?: number
  /** The URL as written in the config (secret references unresolved), for messages. */
  url?: string
  /** How the stdio child ended, when it did. */
  exit?: { code: number | null; signal: string | null }
  /**
   * Where a person fixes the server's settings, for advice: its entry's `origin` (a registry
   * file, `workbench` for a server tried by hand, the CLI's command line).
   */
  origin?: string
}

/** Where to check a stdio server's `field`, said for the place its settings came from. */
function checkWhere(field: 'command' | 'cwd', origin: string | undefined): string {
  if (origin === 'workbench') return `the ${field} given to "Try a server"`
  if (origin === AD_HOC_ORIGIN)
    return field === 'command' ? 'the --stdio command' : 'the folder you ran it in'
  return `"${field}" in rag-mcp.json`
}

/**
 * Turns anything a call threw into a {@link ConsoleError} with a string code, an origin and a
 * message a person can act on. The origin comes from what happened on the wire (recorded in
 * the call's context), never from the JSON-RPC number alone: the SDK's own "connection closed"
 * and "timed out" reuse -32000 and -32001, which servers such as RAGbox send for unauthorized
 * and rate limited.
 */
export function classifyError(error: unknown, input: ClassifyInput): ConsoleError {
  const { serverId: server, operation, call } = input
  const make = (
    code: ConsoleCode,
    origin: 'local' | 'server',
    message: string,
    details?: Record<string, unknown>,
  ): ConsoleError =>
    new ConsoleError(
      { code, origin, server, message, ...(details ? { details } : {}) },
      { cause: error },
    )

  if (call?.cancelled)
    return make('cancelled', 'local', `server ${server}: ${operation} was cancelled`)
  if (call?.timedOut) return timeoutError(make, input)
  if (error instanceof ConsoleError) {
    return error.server ? error : new ConsoleError({ ...error.toInfo(), server }, { cause: error })
  }
  if (call?.protocolError) {
    return make(
      'protocol',
      'server',
      `server ${server} sent an unusable reply to ${operation}: ${call.protocolError}. Its MCP implementation is broken; report it to the server's owner`,
    )
  }
  const status = call?.httpStatus ?? httpStatusOf(error)
  if (status !== undefined) return httpError(make, input, status, error)
  if (call?.serverError) return rpcError(make, input, call.serverError)
  const unsendable = unsendableRequest(call?.networkError) ?? unsendableRequest(error)
  if (unsendable) return make('config', 'local', `server ${server}: ${unsendable}`)
  if (call?.networkError) {
    const { reason, next } = networkReason(call.networkError)
    return make(
      'unreachable',
      'local',
      `cannot reach server ${server}${at(input.url)}: ${reason}. ${next}; the console keeps retrying`,
    )
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return make(
      'unreachable',
      'local',
      `server ${server} closed the connection during ${operation}${exitText(input.exit)}`,
    )
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return timeoutError(make, input)
  }
  if (error instanceof McpError) {
    return rpcError(make, input, { code: error.code, message: error.message, data: error.data })
  }
  const text = error instanceof Error ? error.message : String(error)
  const errno = (error as { code?: unknown } | null)?.code
  const missingCwd = (error as { missingCwd?: unknown } | null)?.missingCwd
  if (typeof missingCwd === 'string') {
    return make(
      'config',
      'local',
      `cannot start server ${server}: its working directory ${missingCwd} does not exist (or is not a folder). Check ${checkWhere('cwd', input.origin)}`,
    )
  }
  if (errno === 'ENOENT' || errno === 'EACCES') {
    return make(
      'config',
      'local',
      `cannot start server ${server}: ${errno === 'ENOENT' ? 'command not found' : 'permission denied'} (${String((error as { path?: unknown }).path ?? '')}). Check ${checkWhere('command', input.origin)}: is it installed and on PATH?`,
    )
  }
  if (/not running|not connected/i.test(text)) {
    return make(
      'not_connected',
      'local',
      `server ${server} is not connected (${text}); the console reconnects automatically`,
    )
  }
  if (isSchemaError(error) || /initialize result|protocol version is not supported/i.test(text)) {
    return make(
      'protocol',
      'server',
      `server ${server} sent a reply to ${operation} that does not follow MCP: ${firstLine(text)}. Report it to the server's owner`,
    )
  }
  if (error instanceof SseError) {
    return make(
      'unreachable',
      'local',
      `lost the event stream of server ${server}${at(input.url)}: ${firstLine(text)}; the console reconnects automatically`,
    )
  }
  return make(
    'unreachable',
    'local',
    `server ${server}: ${operation} failed: ${firstLine(text)}. See its log (Servers → Show log) for why`,
  )
}

type Make = (
  code: ConsoleCode,
  origin: 'local' | 'server',
  message: string,
  details?: Record<string, unknown>,
) => ConsoleError

function timeoutError(make: Make, input: ClassifyInput): ConsoleError {
  const limit = input.timeoutMs === undefined ? '' : ` within ${input.timeoutMs} ms`
  return make(
    'timeout',
    'local',
    `server ${input.serverId} did not answer ${input.operation}${limit}; it may be overloaded or hung. Try again, or raise its "timeoutMs" in rag-mcp.json`,
    input.timeoutMs === undefined ? undefined : { timeoutMs: input.timeoutMs },
  )
}

function httpError(make: Make, input: ClassifyInput, status: number, error: unknown): ConsoleError {
  const { serverId: server, operation } = input
  const details: Record<string, unknown> = { httpStatus: status }
  if (status === 401) {
    return make(
      'unauthorized',
      'server',
      `server ${server} refused the credentials (HTTP 401). Set its key in Config → Secrets, then reconnect it`,
      details,
    )
  }
  if (status === 403) {
    return make(
      'unauthorized',
      'server',
      `server ${server} refused access (HTTP 403): its key is wrong or lacks the rights for this. Check its key in Config → Secrets and the key's rights on the server, then reconnect it`,
      details,
    )
  }
  if (status === 429) {
    const retryAfter = input.call?.retryAfter
    if (retryAfter !== undefined) details.retryAfter = retryAfter
    const when = retryAfter === undefined ? 'later' : `in ${retryAfter} s`
    return make(
      'rate_limited',
      'server',
      `server ${server} is rate limiting requests (HTTP 429); try again ${when}`,
      details,
    )
  }
  if (status >= 500) {
    return make(
      'server_error',
      'server',
      `server ${server} failed on ${operation} with HTTP ${status}${serverText(error)}. The fault is the server's: try again later, or tell its owner`,
      details,
    )
  }
  if (status === 404 || status === 405) {
    // The endpoint exists when it answers in JSON-RPC: its error says what was wrong.
    const body = input.call?.errorBody
    if (body) return rpcError(make, input, body, details)
    return make(
      'config',
      'server',
      `server ${server}: no MCP endpoint${at(input.url)} (HTTP ${status}). Check its "url" in rag-mcp.json`,
      details,
    )
  }
  return make(
    'protocol',
    'server',
    `server ${server} rejected ${operation} with HTTP ${status}${serverText(error)}. Check its "url" and "headers" in rag-mcp.json, or tell its owner`,
    details,
  )
}

function rpcError(
  make: Make,
  input: ClassifyInput,
  rpc: RpcErrorPayload,
  http: Record<string, unknown> = {},
): ConsoleError {
  const { serverId: server, operation } = input
  const details: Record<string, unknown> = { ...http, code: rpc.code }
  const data = rpc.data as { httpStatusCode?: unknown; status?: unknown } | undefined
  const httpish = Number(data?.httpStatusCode ?? data?.status)
  const said = `${rpc.message} (JSON-RPC ${rpc.code})`
  const worded = codeFromWords(rpc.message)
  if (httpish === 401 || httpish === 403 || worded === 'unauthorized') {
    return make(
      'unauthorized',
      'server',
      `server ${server} refused ${operation}: ${said}. Check its key in Config → Secrets and the user's rights`,
      details,
    )
  }
  if (httpish === 429 || worded === 'rate_limited') {
    return make(
      'rate_limited',
      'server',
      `server ${server} is rate limiting: ${said}. Try again later`,
      details,
    )
  }
  if (rpc.code === ErrorCode.MethodNotFound) {
    return make(
      'unsupported',
      'server',
      `server ${server} does not support ${input.call?.method ?? `what ${operation} asked for`}: ${said}. Check its "dialect" in rag-mcp.json, or update the server`,
      details,
    )
  }
  return make(
    'server_error',
    'server',
    `server ${server} answered ${operation} with an error: ${said}. Try again, or tell its owner if it persists`,
    details,
  )
}

function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    const code = error.code
    return typeof code === 'number' && code >= 400 && code < 600 ? code : undefined
  }
  return undefined
}

function serverText(error: unknown): string {
  if (!(error instanceof Error)) return ''
  const text = error.message.replace(/^.*?Error POSTing to endpoint(?: \(HTTP \d+\))?:\s*/s, '')
  const line = firstLine(text).trim()
  return line && line !== error.message ? `: ${line.slice(0, 200)}` : ''
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'the connection was closed by the other side',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
}

const CHECK_RUNNING = 'Check that it is running and that its "url" in rag-mcp.json is right'

/**
 * Why a request outside a server call (an OAuth sign-in's fetches) got no response, when that
 * is what failed: fetch's TypeError with a system error code as its cause. Else undefined.
 */
export function networkFailure(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause
  return error instanceof TypeError && typeof cause?.code === 'string'
    ? networkReason(error).reason
    : undefined
}

/** Why a request got no response, and what to check. */
function networkReason(error: unknown): { reason: string; next: string } {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
  if (cause && typeof cause.code === 'string') {
    // An https URL on a plain HTTP port: OpenSSL reads the HTTP reply as a bad TLS record.
    if (/^ERR_SSL_|^EPROTO$/.test(cause.code)) {
      return {
        reason: `the TLS handshake failed (${cause.code}); it seems not to speak HTTPS on that port`,
        next: 'If it serves plain HTTP, write http:// in its "url" in rag-mcp.json',
      }
    }
    const words = NETWORK_WORDS[cause.code]
    const reason = words ? `${words} (${cause.code})` : cause.code
    if (/CERT|SELF_SIGNED/.test(cause.code)) {
      return { reason, next: "Ask the server's owner to fix its certificate" }
    }
    return { reason, next: CHECK_RUNNING }
  }
  if (cause && typeof cause.message === 'string')
    return { reason: cause.message, next: CHECK_RUNNING }
  return { reason: error instanceof Error ? error.message : String(error), next: CHECK_RUNNING }
}

/**
 * fetch refusing to build the request before anything is sent: what to fix, or undefined.
 * Never quotes the value: it is often a resolved secret.
 */
function unsendableRequest(error: unknown): string | undefined {
  if (!(error instanceof TypeError)) return undefined
  if (/invalid header value|convert argument to a ByteString/i.test(error.message)) {
    return 'a header value cannot be sent over HTTP (it holds a line break, NUL or a character beyond Latin-1, once its references are resolved). Fix "headers" in rag-mcp.json or the secret it uses'
  }
  if (/URL that includes credentials/i.test(error.message)) {
    return 'its url carries a user name or password, which HTTP clients do not send. Remove them from "url" in rag-mcp.json and send a header instead, e.g. "Authorization": "Basic ${keychain:basic}"'
  }
  return undefined
}

function isSchemaError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'ZodError'
  )
}

const at = (url: string | undefined): string => (url ? ` at ${url}` : '')
const firstLine = (text: string): string => text.split('\n')[0] ?? text

/** How the stdio child ended and what to do about it; for HTTP, that the console reconnects. */
function exitText(exit: ClassifyInput['exit']): string {
  if (!exit) return '; the console reconnects automatically'
  const restarts = 'the console restarts it automatically'
  if (exit.signal) {
    return ` (the process was killed by ${exit.signal}); ${restarts}. See its log (Servers → Show log) for why`
  }
  return ` (the process exited with code ${exit.code}). See why in its log (Servers → Show log) and check "command" and "args" in rag-mcp.json; ${restarts}`
}
