import { ConsoleError, toErrorInfo } from '#shared/errors'
import type { ActingUser } from '#shared/model/user'
import { sendsIdentity } from '../../dialects/registry'
import { userHeaders } from '../../pool/http-fetch'
import type { ResolvedConnection } from '../../secrets/types'
import type { AuditSink } from '../audited-session'
import type { ServerCall } from '../server-calls'
import type { Exchange, Probe, Provoking, WirePost, WireReply } from './types'

/** What a probe needs beyond the server's part of the operation. */
export interface ProbeDeps {
  call: ServerCall
  user: ActingUser
  /** The server's connection settings with secrets resolved (raw HTTP only). */
  resolved?: ResolvedConnection
  audit: AuditSink
  now?: () => number
}

/** Builds the {@link Probe} one check gets; `options` carries that check's deadline. */
export function createProbe(deps: ProbeDeps, signal: AbortSignal, timeoutMs: number): Probe {
  const { session, adapter, dialect } = deps.call
  const options = { ...deps.call.options, signal, timeoutMs }
  const url = deps.resolved?.url ?? deps.call.session.config.url
  const probe: Probe = {
    config: session.config,
    session,
    ...(url ? { url } : {}),
    dialect,
    adapter,
    tools: session.tools,
    ...(session.serverInfo ? { serverInfo: session.serverInfo } : {}),
    user: deps.user,
    options,
    callTool: async (name, args, user = deps.user, how = {}) => {
      const request = { method: 'tools/call', params: { name, arguments: args } }
      const callOptions = { ...options, user, ...expecting(how) }
      try {
        return { request, reply: await session.callTool(name, args, callOptions) }
      } catch (error) {
        return { request, error: toErrorInfo(error) }
      }
    },
    request: async (method, params, how = {}) => {
      const request = { method, ...(params ? { params } : {}) }
      try {
        return {
          request,
          reply: await session.request(method, params, { ...options, ...expecting(how) }),
        }
      } catch (error) {
        return { request, error: toErrorInfo(error) }
      }
    },
  }
  if (session.config.transport === 'http' && url && deps.resolved) {
    probe.post = wirePost({ ...deps, url, headers: deps.resolved.headers, signal })
  }
  return probe
}

let nextId = 0

/** The call options of a probe that asks for an error on purpose. */
const expecting = (how: Provoking): { expectsError?: true } =>
  how.expectError ? { expectsError: true } : {}

function wirePost(deps: {
  url: string
  headers: Record<string, string>
  user: ActingUser
  signal: AbortSignal
  call: ServerCall
  audit: AuditSink
  now?: () => number
}): WirePost {
  const now = deps.now ?? Date.now
  return async (message, options = {}) => {
    const url = options.url ?? deps.url
    const body = { jsonrpc: '2.0', id: `doctor-${++nextId}`, ...message }
    const identity = sendsIdentity(deps.call.session.config, deps.call.session.tools)
    const extra = options.bare
      ? {}
      : { ...deps.headers, ...(identity ? userHeaders(deps.user) : {}) }
    // Evidence names the configured headers without their values (they may be credentials).
    const shown = Object.fromEntries(
      Object.keys(extra).map((name) => [
        name,
        name in deps.headers ? '(from the config)' : extra[name],
      ]),
    )
    const request = { url, headers: shown, body }
    const started = now()
    let outcome: Exchange<WireReply>
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...extra,
        },
        body: JSON.stringify(body),
        redirect: 'manual',
        signal: deps.signal,
      })
      outcome = { request, reply: await wireReply(response) }
    } catch (error) {
      const info = toErrorInfo(
        deps.signal.aborted
          ? new ConsoleError({ code: 'timeout', origin: 'local', message: 'no answer in time' })
          : new ConsoleError({
              code: 'unreachable',
              origin: 'local',
              message: `POST ${url} failed: ${error instanceof Error ? error.message : String(error)}`,
            }),
      )
      outcome = { request, error: info }
    }
    const status = outcome.reply?.status
    // An HTTP error the probe asked for (a request without the key) is the server's right answer.
    const expected = options.expectError && status !== undefined && status >= 400
    deps.audit.record({
      at: new Date(started).toISOString(),
      user: deps.user.userId,
      server: deps.call.session.serverId,
      operation: 'doctor',
      tool: message.method,
      outcome: outcome.error || (!expected && (status ?? 500) >= 400) ? 'error' : 'ok',
      ...(outcome.error ? { errorCode: outcome.error.code } : {}),
      ...(expected ? { expectedError: `http_${status}` } : {}),
      latencyMs: now() - started,
    })
    return outcome
  }
}

const MAX_BODY_CHARS = 1_000_000
/** Response headers that may carry a session credential: named in evidence, never shown. */
const HIDDEN_HEADERS = new Set(['set-cookie', 'authorization', 'proxy-authorization'])

async function wireReply(response: Response): Promise<WireReply> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = HIDDEN_HEADERS.has(name) ? '(not shown)' : value
  })
  const text = await boundedText(response)
  const data = /^data:\s*(.*)$/m.exec(text)
  const json = headers['content-type']?.includes('text/event-stream') && data ? data[1]! : text
  let body: unknown = text
  try {
    body = JSON.parse(json) as unknown
  } catch {
    // Not JSON: the text is the evidence.
  }
  return { status: response.status, headers, body }
}

/** The body as text, at most {@link MAX_BODY_CHARS}: a reply that goes on is cut and dropped. */
async function boundedText(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (text.length < MAX_BODY_CHARS) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    text += decoder.decode(value, { stream: true })
  }
  await reader.cancel()
  return text.slice(0, MAX_BODY_CHARS)
}
