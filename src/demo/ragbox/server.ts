import type { IncomingMessage } from 'node:http'
import { broken } from '../breaks'
import { RAGBOX_KEYS } from '../keys'
import {
  RPC,
  RPC_HTTP_STATUS,
  RpcError,
  dispatch,
  idOf,
  negotiateVersion,
  parseMessage,
  readBody,
  rpcError,
  sendEmpty,
  sendJson,
  toolCall,
  type JsonRpcResponse,
  type Methods,
} from '../http/jsonrpc'
import type { Handler } from '../http/listen'
import { RateLimiter, type RateState } from './rate-limit'
import { RAGBOX_TOOLS, RagboxTools } from './tools'
import { grantFor, type KeyGrant } from './vault'

/** RAGbox's own error codes. */
export const RAGBOX_ERRORS = {
  UNAUTHORIZED: -32000,
  RATE_LIMITED: -32001,
  INTERNAL: -32002,
} as const

/** HTTP status of each JSON-RPC error code (the spec's error table). */
const HTTP_STATUS: Record<number, number> = {
  ...RPC_HTTP_STATUS,
  [RAGBOX_ERRORS.UNAUTHORIZED]: 401,
  [RAGBOX_ERRORS.RATE_LIMITED]: 429,
  [RAGBOX_ERRORS.INTERNAL]: 500,
}

export interface RagboxOptions {
  /** MCP requests per minute per API key (spec: 60). */
  rateLimit: number
  /** query_knowledge calls per minute per API key (spec: 10). */
  queryRateLimit: number
  /** Window of both limits; default a minute (shorter in tests that wait one out). */
  rateWindowMs?: number
  /** This instance's backend latency (default: the process's `--latency`). */
  latencyMs?: number
}

function apiKey(req: IncomingMessage): string | undefined {
  const value = req.headers['x-api-key']
  return Array.isArray(value) ? value[0] : value
}

function rateHeaders(state: RateState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
  }
}

/**
 * The RAGbox family (spec 003) at `POST /api/mcp`: plain JSON-RPC over HTTP (no sessions, no
 * SSE), `X-API-Key` required, tool results as JSON inside `content[0].text`, `X-RateLimit-*`
 * headers on every response, -32000 = unauthorized (401), -32001 = rate limited (429).
 */
export function ragboxHandler(options: RagboxOptions): Handler {
  const tools = new RagboxTools()
  const requests = new RateLimiter(options.rateLimit, options.rateWindowMs)
  const queries = new RateLimiter(options.queryRateLimit, options.rateWindowMs)

  const methods: Methods<{ grant: KeyGrant; key: string }> = {
    initialize: (params) => ({
      protocolVersion: negotiateVersion(params.protocolVersion),
      capabilities: { tools: {} },
      serverInfo: { name: 'ragbox-demo', version: '1.0.0' },
    }),
    ping: () => ({}),
    'tools/list': () => ({
      tools: broken('ragbox.tools')
        ? RAGBOX_TOOLS.filter((tool) => tool.name !== 'list_documents')
        : RAGBOX_TOOLS,
    }),
    'tools/call': (params, ctx) => {
      const { name, args } = toolCall(params)
      if (name === 'query_knowledge' && !queries.take(ctx.key).allowed) {
        throw new RpcError(
          RAGBOX_ERRORS.RATE_LIMITED,
          `Rate limited: query_knowledge allows ${options.queryRateLimit} calls per minute per API key`,
        )
      }
      return tools.call(name, args, ctx.grant)
    },
  }

  return async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path !== '/api/mcp')
      return sendJson(res, 404, { error: `No MCP endpoint at ${path}; use /api/mcp` })
    // Broken: a request without a key is served as the first demo key's vault.
    const key = apiKey(req) ?? (broken('ragbox.api-key') ? RAGBOX_KEYS.acme : undefined)
    const grant = grantFor(key)
    const state = requests.take(grant && key ? key : `anonymous:${req.socket.remoteAddress}`)
    const headers = broken('ragbox.rate-limit') ? {} : rateHeaders(state)
    const fail = (
      id: JsonRpcResponse['id'],
      error: RpcError,
      extra: Record<string, string> = {},
    ): void =>
      sendJson(res, HTTP_STATUS[error.code] ?? 500, rpcError(id, error), { ...headers, ...extra })

    if (!state.allowed) {
      const retry = String(Math.max(1, state.reset - Math.floor(Date.now() / 1000)))
      const error = new RpcError(
        RAGBOX_ERRORS.RATE_LIMITED,
        `Rate limited: ${options.rateLimit} requests per minute per API key`,
      )
      return fail(null, error, { 'retry-after': retry })
    }
    if (req.method !== 'POST') return sendEmpty(res, 405, { ...headers, allow: 'POST' })
    if (!grant || !key) {
      const reason = key ? 'invalid API key' : 'missing X-API-Key header'
      return fail(null, new RpcError(RAGBOX_ERRORS.UNAUTHORIZED, `Unauthorized — ${reason}`))
    }
    const text = await readBody(req)
    let response: JsonRpcResponse | undefined
    try {
      response = await dispatch(parseMessage(text), methods, { grant, key }, options.latencyMs)
    } catch (error) {
      if (error instanceof RpcError) return fail(idOf(text), error)
      throw error
    }
    if (!response) return sendEmpty(res, 202, headers)
    if ('error' in response) {
      const code =
        response.error.code === RPC.INTERNAL_ERROR ? RAGBOX_ERRORS.INTERNAL : response.error.code
      return fail(response.id, new RpcError(code, response.error.message))
    }
    sendJson(res, 200, response, headers)
  }
}
