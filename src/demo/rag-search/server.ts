import type { IncomingMessage, ServerResponse } from 'node:http'
import { groupsFromSessionTags, canRead } from '../access'
import { broken } from '../breaks'
import { docsOf, getCorpus } from '../data/corpus'
import type { SourceId } from '../data/types'
import {
  RPC,
  RpcError,
  dispatch,
  idOf,
  negotiateVersion,
  parseMessage,
  readBody,
  rpcError,
  sendEmpty,
  sendJson,
  stringArg,
  toolCall,
  type Methods,
} from '../http/jsonrpc'
import type { Handler } from '../http/listen'
import type { LinkContext } from '../links'
import { ChunkIndex } from '../search/index'
import { toSegment, verifyAccess } from './segments'

/** The sources this family serves. */
export const RAG_SEARCH_SOURCES: SourceId[] = ['handbook', 'it-kb', 'legal', 'engineering']

export interface RagSearchOptions {
  apiKey: string
  docHost: string
  ttlSeconds: number
  secret: string
  /** Segments per answer; the spec allows at most 20 (more makes a non-conforming server). */
  maxSegments: number
  /** This instance's backend latency (default: the process's `--latency`). */
  latencyMs?: number
}

/** Who is asking, from the headers spec 000 defines. */
interface Caller {
  userId: string
  tags: string[]
  groups: string[]
  humanUid?: string | undefined
}

const TOOLS = () => [
  {
    name: 'rag_search',
    description: 'Searches the knowledge base for relevant information using semantic search',
    inputSchema: {
      type: 'object',
      properties: {
        search_phrases: {
          type: 'array',
          items: { type: 'string' },
          description: '1-5 search phrases for semantic retrieval',
          minItems: 1,
          ...(broken('rag-search.tool') ? {} : { maxItems: 5 }),
        },
      },
      required: ['search_phrases'],
    },
  },
  {
    name: 'verify_document_access',
    description:
      'Will verify user access to a document and optionally provide a refreshed URL with current credentials',
    inputSchema: {
      type: 'object',
      properties: {
        segment_uid: {
          type: 'string',
          description: 'The unique segment identifier originally provided by your RAG server',
        },
      },
      required: ['segment_uid'],
    },
  },
]

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** Parses `x-session-tags`; a malformed value is the client's error, not "no tags". */
function sessionTags(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return []
  let tags: unknown
  try {
    tags = JSON.parse(raw)
  } catch {
    tags = undefined
  }
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) {
    throw new RpcError(
      RPC.INVALID_REQUEST,
      'x-session-tags must be a JSON array of strings, e.g. ["department:sales"]',
    )
  }
  return tags
}

function phrasesArg(args: Record<string, unknown>): string[] {
  const phrases = args.search_phrases
  const ok =
    Array.isArray(phrases) &&
    phrases.length >= 1 &&
    (phrases.length <= 5 || broken('rag-search.phrases')) &&
    phrases.every((phrase) => typeof phrase === 'string' && phrase.trim() !== '')
  if (!ok)
    throw new RpcError(
      RPC.INVALID_PARAMS,
      'Invalid params: search_phrases must be 1-5 non-empty strings',
    )
  return phrases as string[]
}

/**
 * The rag-search family (spec 000) over streamable HTTP at `/mcp`: stateless, JSON responses,
 * Bearer key required, user context from `x-user-id` / `x-session-tags` / `x-human-uid`, and
 * tool results that are NOT CallToolResults: `{status, segments}` and
 * `{has_access, refreshed_url, access_level, error}` are the JSON-RPC result itself.
 */
export function ragSearchHandler(options: RagSearchOptions): Handler {
  const corpus = getCorpus()
  const index = new ChunkIndex(docsOf(RAG_SEARCH_SOURCES), corpus.chunksOf)
  const links = (caller: Caller): LinkContext => ({
    docHost: options.docHost,
    userId: caller.userId,
    ttlSeconds: options.ttlSeconds,
    secret: options.secret,
  })

  const tools: Record<string, (args: Record<string, unknown>, caller: Caller) => unknown> = {
    rag_search: (args, caller) => {
      const phrases = phrasesArg(args)
      const accept = (doc: Parameters<typeof canRead>[0]): boolean =>
        canRead(doc, caller.userId, caller.groups)
      const hits = index.searchPhrases(phrases, accept, options.maxSegments)
      const segments = hits.map((hit) => toSegment(hit, phrases[0]!, links(caller)))
      return broken('rag-search.shape') ? { segments } : { status: 'success', segments }
    },
    verify_document_access: (args, caller) => {
      const uid = stringArg(args, 'segment_uid', true)
      const chunk = corpus.chunkById.get(uid)
      const doc = chunk && corpus.byId.get(chunk.docId)
      const served = doc && RAG_SEARCH_SOURCES.includes(doc.source) ? doc : undefined
      const verdict = verifyAccess(served, uid, caller.groups, links(caller))
      return broken('rag-search.verify')
        ? { ...verdict, has_access: String(verdict.has_access) }
        : verdict
    },
  }

  const methods: Methods<Caller> = {
    initialize: (params) => ({
      protocolVersion: negotiateVersion(params.protocolVersion),
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: 'rag-search-demo', version: '1.0.0' },
      instructions: 'Demo RAG MCP server (spec 000): call rag_search with 1-5 search phrases.',
    }),
    ping: () => ({}),
    'tools/list': () => ({ tools: TOOLS() }),
    'tools/call': (params, caller) => {
      const { name, args } = toolCall(params)
      const tool = Object.hasOwn(tools, name) ? tools[name] : undefined
      if (!tool) throw new RpcError(RPC.INVALID_PARAMS, `Unknown tool: ${name}`)
      try {
        return tool(args, caller)
      } catch (error) {
        if (error instanceof RpcError) throw error
        throw new RpcError(
          RPC.INTERNAL_ERROR,
          `RAG search failed: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
    },
  }

  const bearer = `Bearer ${options.apiKey}`
  return async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path !== '/mcp')
      return sendJson(res, 404, { error: `No MCP endpoint at ${path}; use /mcp` })
    if (req.method !== 'POST') return sendEmpty(res, 405, { allow: 'POST' })
    if (header(req, 'authorization') !== bearer) {
      const error = new RpcError(-32000, 'Unauthorized: send Authorization: Bearer <your API key>')
      return sendJson(res, 401, rpcError(null, error), {
        'www-authenticate': 'Bearer realm="rag-search-demo"',
      })
    }
    const text = await readBody(req)
    try {
      const message = parseMessage(text)
      // Broken: every caller is treated as a fixed, well-connected user.
      const tags = broken('rag-search.identity')
        ? ['department:legal', 'department:sales', 'department:engineering', 'role:admin']
        : sessionTags(header(req, 'x-session-tags'))
      const caller: Caller = {
        userId: broken('rag-search.identity')
          ? 'carol@example.com'
          : header(req, 'x-user-id')?.trim() || 'anonymous',
        tags,
        groups: groupsFromSessionTags(tags),
        humanUid: header(req, 'x-human-uid'),
      }
      const response = await dispatch(message, methods, caller, options.latencyMs)
      if (!response) return sendEmpty(res, 202)
      sendJson(res, 200, response)
    } catch (error) {
      if (!(error instanceof RpcError)) throw error
      sendJson(res, 400, rpcError(idOf(text), error))
    }
  }
}
