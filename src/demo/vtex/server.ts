import { broken } from '../breaks'
import {
  RPC,
  RPC_HTTP_STATUS,
  RpcError,
  dispatch,
  idOf,
  parseMessage,
  readBody,
  rpcError,
  sendEmpty,
  sendJson,
  stringArg,
  toolCall,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type Methods,
} from '../http/jsonrpc'
import type { Handler } from '../http/listen'
import { MAX_RESULTS, VtexCatalog, type SearchArgs } from './catalog'

/** Every endpoint lives under this prefix. */
export const VTEX_BASE = '/_v/rag_server/v1/mcp'

/** The per-method endpoints (path after the prefix = JSON-RPC method). */
export const VTEX_ENDPOINTS = [
  'handshake',
  'initialize',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'notifications/initialized',
]

const SERVER_INFO = { name: 'VTEX IO RAG Server', version: '1.0.0' }

const SEARCH_TOOL = {
  name: 'search_documents',
  description: 'Search for documents in the knowledge base using text matching',
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'Search query to match against document title and content',
      },
      category: {
        type: 'string',
        description: 'Filter documents by category (e.g., Product, Business, Technical, FAQ)',
      },
      tags: { type: 'array', items: { type: 'string' }, description: 'Filter documents by tags' },
      author: { type: 'string', description: 'Filter documents by author' },
      limit: {
        type: 'number',
        description: 'Maximum number of results to return (default: 20, max: 100)',
        minimum: 1,
        maximum: 100,
        default: 20,
      },
    },
    required: [],
  },
}

function searchArgs(args: Record<string, unknown>): SearchArgs {
  const tags = args.tags
  if (
    tags !== undefined &&
    (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string'))
  ) {
    throw new RpcError(RPC.INVALID_PARAMS, 'Invalid params: "tags" must be an array of strings')
  }
  const limit = args.limit ?? 20
  if (typeof limit !== 'number' || !Number.isFinite(limit)) {
    throw new RpcError(RPC.INVALID_PARAMS, 'Invalid params: "limit" must be a number')
  }
  return {
    query: stringArg(args, 'query'),
    category: stringArg(args, 'category'),
    tags: tags as string[] | undefined,
    author: stringArg(args, 'author'),
    limit: Math.min(MAX_RESULTS, Math.max(1, Math.floor(limit))),
  }
}

/** Error responses carry `data.httpStatusCode` as the spec shows; the HTTP status stays 200. */
function withStatus(response: JsonRpcResponse): JsonRpcResponse {
  if (!('error' in response)) return response
  const data = (response.error.data ?? {}) as Record<string, unknown>
  const httpStatusCode = data.httpStatusCode ?? RPC_HTTP_STATUS[response.error.code] ?? 500
  return { ...response, error: { ...response.error, data: { ...data, httpStatusCode } } }
}

/**
 * The VTEX IO family (spec 004): one POST endpoint per method under
 * `/_v/rag_server/v1/mcp/` plus the generic router `/_v/rag_server/v1/mcp/:instance`, a
 * non-standard `handshake`, plain JSON responses, no sessions, no GET stream, no auth, and
 * `rag://` resources.
 */
/** `latencyMs`: this instance's backend latency (default: the process's `--latency`). */
export function vtexHandler(latencyMs?: number): Handler {
  const catalog = new VtexCatalog()
  const methods: Methods<undefined> = {
    handshake: (params) => {
      const version = typeof params.version === 'string' ? params.version : '1.0.0'
      return {
        version: '1.0.0',
        capabilities: ['resources', 'tools', 'logging'],
        compatible: version.split('.')[0] === '1',
        serverInfo: {
          ...SERVER_INFO,
          description: 'Model Context Protocol server for document search and retrieval',
        },
      }
    },
    initialize: () => ({
      protocolVersion: '2024-11-05',
      capabilities: { tools: {}, resources: {} },
      serverInfo: SERVER_INFO,
    }),
    'notifications/initialized': () => undefined,
    'tools/list': () => ({ tools: [SEARCH_TOOL] }),
    'tools/call': (params) => {
      const { name, args } = toolCall(params)
      if (name !== 'search_documents')
        throw new RpcError(RPC.INVALID_PARAMS, `Unknown tool: ${name}`)
      const query = searchArgs(args)
      const { results, ...found } = catalog.search(query)
      // Broken: the hits move to a key a generic mapping of this tool does not name.
      const hits = broken('generic.search-tool') ? { documents: results } : { results }
      const text = JSON.stringify({ ...hits, ...found, query }, null, 2)
      return { content: [{ type: 'text', text }] }
    },
    'resources/list': () => ({ resources: catalog.resources() }),
    'resources/read': (params) => {
      const uri = stringArg(params, 'uri', true)
      return {
        contents: [
          { uri, mimeType: 'application/json', text: JSON.stringify(catalog.read(uri), null, 2) },
        ],
      }
    },
  }

  return async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (!path.startsWith(`${VTEX_BASE}/`))
      return sendJson(res, 404, { error: `Not found: ${path}` })
    const rest = path.slice(VTEX_BASE.length + 1)
    // Broken: only the generic router answers; the per-method endpoints are gone.
    const fixed = VTEX_ENDPOINTS.includes(rest) && !broken('vtex.endpoints') ? rest : undefined
    if (!fixed && (rest === '' || rest.includes('/')))
      return sendJson(res, 404, { error: `Not found: ${path}` })
    if (req.method !== 'POST') return sendEmpty(res, 405, { allow: 'POST' })
    const text = await readBody(req)
    let message: JsonRpcMessage
    try {
      message = parseMessage(text)
      if (fixed && message.method !== fixed) {
        throw new RpcError(
          RPC.INVALID_REQUEST,
          `Invalid Request: this endpoint serves "${fixed}", got "${message.method}"`,
        )
      }
    } catch (error) {
      if (!(error instanceof RpcError)) throw error
      return sendJson(res, 200, withStatus(rpcError(idOf(text), error)))
    }
    const response =
      broken('vtex.handshake') && message.method === 'handshake'
        ? withStatus(
            rpcError(message.id ?? null, new RpcError(RPC.METHOD_NOT_FOUND, 'Method not found')),
          )
        : await dispatch(message, methods, undefined, latencyMs)
    if (!response || message.method.startsWith('notifications/')) return sendEmpty(res, 204)
    sendJson(res, 200, withStatus(response))
  }
}
