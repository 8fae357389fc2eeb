import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { ConsoleError } from '#shared/errors'
import type { RateLimitInfo } from '#shared/model/server'
import type { ActingUser } from '#shared/model/user'
import type { CallContext, CallTracker, RpcErrorPayload } from './call-context'
import type { HttpExchange } from './protocol-log'
import { malformedReply, repairMessage, type RepairOutcome } from './repair'
import { repairEventStream } from './sse-repair'
import { wireFetch } from './wire-fetch'

/** What the pool's HTTP `fetch` needs to know about one server connection. */
export interface HttpFetchOptions {
  transport: 'http' | 'sse'
  /** Static and keychain-resolved headers from the config (`Authorization`, `X-API-Key`, …). */
  headers: Record<string, string>
  /** Whether calls carry the acting user's identity headers (asked per request). */
  identity(): boolean
  tracker: CallTracker
  /** Every repaired or unusable reply (tolerated quirks are logged, unusable ones fail calls). */
  onRepair(outcome: RepairOutcome): void
  onRateLimit(info: RateLimitInfo): void
  /** A one-line remark about how this server is being talked to, for the server's log. */
  onNote(note: string): void
  /** The status of every POST carrying a JSON-RPC message, with the headers the console added. */
  onExchange?(exchange: HttpExchange): void
  /** The underlying fetch; {@link wireFetch} by default. */
  fetch?: FetchLike
  now?: () => number
}

interface RpcInfo {
  kind: 'request' | 'notification' | 'other'
  method?: string
  id?: string | number
}

/** One outgoing HTTP request as the layers see it. */
interface WireRequest {
  url: URL
  init: RequestInit
  httpMethod: string
  rpc?: RpcInfo
  /** The pool call this request belongs to (requests only, never notifications or streams). */
  call?: CallContext
}

type Step = (request: WireRequest) => Promise<Response>
type Layer = (next: Step) => Step

/**
 * The `fetch` given to the SDK's SSE and streamable HTTP transports: the single point where the
 * console adapts HTTP traffic. Layers, outermost first:
 *
 * 1. call context — config headers, the acting user's `x-user-id` / `x-session-tags` /
 *    `x-human-uid` for this call only (to servers that get them), and the call's abort signal;
 * 2. observation — HTTP status and network failures recorded on the call, `X-RateLimit-*`
 *    captured;
 * 3. notifications — a server that answers a notification with 404/405/4xx/5xx is accepted;
 * 4. GET stream — a server without a server-to-client stream is told apart cleanly (405), so
 *    the SDK neither errors nor polls;
 * 5. reply repair — missing `jsonrpc`, extra top-level keys, odd content types; unusable replies
 *    fail their call at once as `protocol`;
 * 6. per-method endpoints — `…/mcp` answering 404 but `…/mcp/tools/call` existing.
 */
export function createHttpFetch(options: HttpFetchOptions): FetchLike {
  const base = options.fetch ?? wireFetch()
  const layers: Layer[] = [
    withCallContext(options),
    observe(options),
    acceptNotifications,
    ...(options.transport === 'http' ? [refuseGetStream(options)] : []),
    repairReplies(options),
    ...(options.transport === 'http' ? [perMethodEndpoints(options)] : []),
  ]
  const step = layers.reduceRight<Step>(
    (next, layer) => layer(next),
    (request) => base(request.url, request.init),
  )
  return (url, init = {}) => step(describe(url, init))
}

function describe(url: string | URL, init: RequestInit): WireRequest {
  const httpMethod = (init.method ?? 'GET').toUpperCase()
  const request: WireRequest = { url: url instanceof URL ? url : new URL(url), init, httpMethod }
  if (httpMethod === 'POST' && typeof init.body === 'string') request.rpc = rpcInfo(init.body)
  return request
}

function rpcInfo(body: string): RpcInfo {
  let message: unknown
  try {
    message = JSON.parse(body)
  } catch {
    return { kind: 'other' }
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { kind: 'other' }
  }
  const { method, id } = message as { method?: unknown; id?: unknown }
  if (typeof method !== 'string') return { kind: 'other' }
  if (typeof id === 'string' || typeof id === 'number') return { kind: 'request', method, id }
  return { kind: 'notification', method }
}

const withCallContext =
  (options: HttpFetchOptions): Layer =>
  (next) =>
  (request) => {
    // The SDK builds a fresh Headers object per request: adding to it is safe.
    const given = request.init.headers
    const headers = given instanceof Headers ? given : new Headers(given)
    for (const [name, value] of Object.entries(options.headers)) {
      if (!headers.has(name)) headers.set(name, value)
    }
    // The request's id was bound to its call as the Client sent it (observed-transport.ts).
    const call = request.rpc?.kind === 'request' ? options.tracker.get(request.rpc.id) : undefined
    if (call?.user && options.identity()) {
      for (const [name, value] of Object.entries(userHeaders(call.user))) headers.set(name, value)
    }
    const init: RequestInit = { ...request.init, headers }
    // A request follows its call's signal (which the pool also aborts when the call fails for
    // any reason, a closed connection included). A notification keeps the transport's: the
    // cancellation of an aborted call must still go out.
    if (call) {
      if (call.signal) init.signal = call.signal
      return next({ ...request, init, call })
    }
    return next({ ...request, init })
  }

/** HTTP header values carry visible ASCII only; anything else is refused up front. */
/** The acting user's `x-user-id`, `x-session-tags` and `x-human-uid` headers (spec 000). */
export function userHeaders(user: ActingUser): Record<string, string> {
  const headers: Record<string, string> = {
    'x-user-id': headerValue('user id', user.userId),
    'x-session-tags': asciiJson(user.sessionTags),
  }
  if (user.humanUid) headers['x-human-uid'] = headerValue('human uid', user.humanUid)
  return headers
}

function headerValue(what: string, value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value
  throw new ConsoleError({
    code: 'invalid_argument',
    origin: 'local',
    message: `the acting user's ${what} ${JSON.stringify(value)} has characters an HTTP header cannot carry; use an ASCII id`,
  })
}

/** JSON with every non-ASCII character escaped, so any tag fits in a header and parses back. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

const observe =
  (options: HttpFetchOptions): Layer =>
  (next) =>
  async (request) => {
    let response: Response
    try {
      response = await next(request)
    } catch (error) {
      if (request.call && !request.call.signal?.aborted) request.call.networkError ??= error
      throw error
    }
    const rateLimit = readRateLimit(response.headers, options.now ?? Date.now)
    if (rateLimit) options.onRateLimit(rateLimit)
    if (options.onExchange && request.rpc && request.rpc.kind !== 'other') {
      options.onExchange(exchangeOf(request, response.status, options.headers))
    }
    if (request.call && !response.ok) {
      request.call.httpStatus = response.status
      const retryAfter = Number(response.headers.get('retry-after'))
      if (Number.isFinite(retryAfter) && retryAfter > 0) request.call.retryAfter = retryAfter
      const challenge = response.headers.get('www-authenticate')
      if (challenge !== null) request.call.challenge = challenge
      const rpc = await rpcErrorOf(response)
      if (rpc) request.call.errorBody = rpc
    }
    return response
  }

/**
 * The JSON-RPC error in the body of a non-2xx reply, if it is one (RAGbox sends -32601 with
 * HTTP 404): the endpoint exists and the server said why it refused.
 */
async function rpcErrorOf(response: Response): Promise<RpcErrorPayload | undefined> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return undefined
  let body: unknown
  try {
    body = JSON.parse(await response.clone().text())
  } catch {
    return undefined
  }
  const error = (body as { error?: unknown } | null)?.error as Partial<RpcErrorPayload> | undefined
  if (typeof error !== 'object' || error === null) return undefined
  if (typeof error.code !== 'number' || typeof error.message !== 'string') return undefined
  return { code: error.code, message: error.message, data: error.data }
}

const IDENTITY_HEADERS = ['x-user-id', 'x-session-tags', 'x-human-uid']

/** The headers of a request that the console put there: the config's and the acting user's. */
function exchangeOf(
  request: WireRequest,
  status: number,
  configured: Record<string, string>,
): HttpExchange {
  const given = request.init.headers
  const sent = given instanceof Headers ? given : new Headers(given)
  const headers: Record<string, string> = {}
  for (const name of [...Object.keys(configured), ...IDENTITY_HEADERS]) {
    const value = sent.get(name)
    if (value !== null) headers[name] = value
  }
  const exchange: HttpExchange = { status, headers }
  if (request.rpc?.method) exchange.method = request.rpc.method
  if (request.rpc?.id !== undefined) exchange.id = request.rpc.id
  return exchange
}

function readRateLimit(headers: Headers, now: () => number): RateLimitInfo | undefined {
  const read = (name: string): number | undefined => {
    const value = headers.get(name)
    if (value === null || value.trim() === '') return undefined
    const number = Number(value)
    return Number.isFinite(number) ? number : undefined
  }
  const limit = read('x-ratelimit-limit')
  const remaining = read('x-ratelimit-remaining')
  const reset = read('x-ratelimit-reset')
  if (limit === undefined && remaining === undefined && reset === undefined) return undefined
  const info: RateLimitInfo = { at: now() }
  if (limit !== undefined) info.limit = limit
  if (remaining !== undefined) info.remaining = remaining
  if (reset !== undefined) info.reset = reset
  return info
}

/** Statuses that still mean something for a notification: refused credentials, rate limiting. */
const MEANINGFUL_FOR_NOTIFICATIONS = new Set([401, 403, 429])

const acceptNotifications: Layer = (next) => async (request) => {
  const response = await next(request)
  if (request.rpc?.kind !== 'notification' || response.ok) return response
  if (MEANINGFUL_FOR_NOTIFICATIONS.has(response.status)) return response
  await response.body?.cancel()
  return new Response(null, { status: 202 })
}

const refuseGetStream =
  (options: HttpFetchOptions): Layer =>
  (next) => {
    let noted = false
    const refuse = (why: string): Response => {
      if (!noted) options.onNote(`no server-to-client stream (${why}); using POST replies only`)
      noted = true
      return new Response(null, { status: 405 })
    }
    return async (request) => {
      if (request.httpMethod !== 'GET') return next(request)
      let response: Response
      try {
        response = await next(request)
      } catch (error) {
        if (request.init.signal?.aborted) throw error
        return refuse('GET failed')
      }
      const type = response.headers.get('content-type') ?? ''
      // 405 is the standard "no stream here"; the SDK takes it quietly.
      if ((response.ok && type.includes('text/event-stream')) || response.status === 405) {
        return response
      }
      await response.body?.cancel()
      return refuse(
        response.ok
          ? `GET answered ${type || 'without a content type'}`
          : `GET answered HTTP ${response.status}`,
      )
    }
  }

const repairReplies =
  (options: HttpFetchOptions): Layer =>
  (next) =>
  async (request) => {
    const response = await next(request)
    if (!response.ok || !response.body) return response
    const type = response.headers.get('content-type') ?? ''
    const onOutcome = (outcome: RepairOutcome): void => {
      if (outcome.problem) options.tracker.markProtocolError(outcome.id, outcome.problem)
      options.onRepair(outcome)
    }
    if (type.includes('text/event-stream')) {
      const isStream =
        request.rpc?.kind === 'request' ||
        (options.transport === 'sse' && request.httpMethod === 'GET')
      if (!isStream) return response
      return new Response(repairEventStream(response.body, onOutcome), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      })
    }
    // Legacy SSE answers POSTs with 202 and sends replies on its stream (repaired above).
    if (request.rpc?.kind !== 'request' || options.transport === 'sse') return response
    return repairJsonReply(response, request.rpc, options, onOutcome)
  }

function repairJsonReply(
  response: Response,
  rpc: RpcInfo,
  options: HttpFetchOptions,
  onOutcome: (outcome: RepairOutcome) => void,
): Response | Promise<Response> {
  const fail = (problem: string): JSONRPCMessage => {
    // Answer the request ourselves so it fails now instead of timing out.
    options.tracker.markProtocolError(rpc.id, problem)
    return malformedReply(rpc.id!, problem)
  }
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    // Repair where the SDK parses, so a clean reply is read once and stays the same object.
    const parse = response.json.bind(response)
    Object.defineProperty(response, 'json', {
      value: async (): Promise<unknown> => {
        let data: unknown
        try {
          data = await parse()
        } catch {
          return fail(`HTTP ${response.status} body is not JSON`)
        }
        return repairPayload(data, fail, onOutcome)
      },
    })
    return response
  }
  // Labelled text/plain, HTML or nothing: read it here, answer as JSON.
  return response.text().then((text) => {
    const headers = new Headers(response.headers)
    headers.set('content-type', 'application/json')
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch {
      data = fail(`not JSON: ${JSON.stringify(text.slice(0, 80))}`)
    }
    const body = JSON.stringify(repairPayload(data, fail, onOutcome))
    return new Response(body, { status: response.status, statusText: response.statusText, headers })
  })
}

/** The reply as the SDK should see it: the same value when clean, else repaired messages. */
function repairPayload(
  data: unknown,
  fail: (problem: string) => JSONRPCMessage,
  onOutcome: (outcome: RepairOutcome) => void,
): unknown {
  const outcomes = Array.isArray(data) ? data.map(repairMessage) : [repairMessage(data)]
  if (outcomes.length === 1 && outcomes[0]!.fixes.length === 0 && !outcomes[0]!.problem) {
    return data
  }
  const messages: JSONRPCMessage[] = []
  for (const outcome of outcomes) {
    onOutcome(outcome)
    if (outcome.message) messages.push(outcome.message)
  }
  if (messages.length === 0) messages.push(fail(outcomes[0]?.problem ?? 'unusable reply'))
  return messages.length === 1 ? messages[0] : messages
}

const NOT_ROUTED = new Set([404, 405])

/**
 * Servers like spec 004's expose one endpoint per method (`…/mcp/tools/call`). When the
 * configured URL answers 404/405 and `<url>/<method>` does not, every later request is
 * rewritten; a URL that answers once is used as is from then on.
 */
const perMethodEndpoints =
  (options: HttpFetchOptions): Layer =>
  (next) => {
    let mode: 'unknown' | 'single' | 'per-method' = 'unknown'
    const rewrite = (request: WireRequest, method: string): WireRequest => {
      const url = new URL(request.url)
      url.pathname = `${url.pathname.replace(/\/+$/, '')}/${method}`
      return { ...request, url }
    }
    return async (request) => {
      const method = request.rpc?.method
      if (request.httpMethod !== 'POST' || !method || mode === 'single') return next(request)
      if (mode === 'per-method') return next(rewrite(request, method))
      const response = await next(request)
      if (response.ok) mode = 'single'
      if (!NOT_ROUTED.has(response.status)) return response
      const alternative = await next(rewrite(request, method))
      if (NOT_ROUTED.has(alternative.status)) {
        await alternative.body?.cancel()
        return response
      }
      await response.body?.cancel()
      mode = 'per-method'
      options.onNote(
        `no single MCP endpoint at ${request.url.pathname}; using per-method endpoints (${request.url.pathname}/<method>)`,
      )
      return alternative
    }
  }
