import { broken } from '../breaks'
import { docText, getCorpus } from '../data/corpus'
import type { Doc } from '../data/types'
import { RPC, RpcError, intArg, stringArg } from '../http/jsonrpc'
import { ChunkIndex } from '../search/index'
import { bestSentence, coverage, queryTerms } from '../search/text'
import { docMeta, vaultDocs, vaultId, visibleTo, type KeyGrant } from './vault'

/** Below this confidence `query_knowledge` stays silent (the Silence Protocol). */
export const SILENCE_THRESHOLD = 0.6

const MODELS = ['gemini-1.5-flash', 'claude-3.5-sonnet', 'gpt-4o']

/** The four tools exactly as the RAGbox spec lists them. */
export const RAGBOX_TOOLS = [
  {
    name: 'search_documents',
    description: 'Search the document vault using semantic similarity',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Natural language search query' },
        limit: {
          type: 'integer',
          description: 'Maximum results to return (1-20, default 5)',
          default: 5,
        },
        privilege_mode: {
          type: 'boolean',
          description: 'Include privileged documents (requires elevated access)',
          default: false,
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'get_document',
    description: 'Get a specific document by ID with full metadata',
    inputSchema: {
      type: 'object',
      properties: {
        document_id: {
          type: 'string',
          description: 'The document ID (from search results or list)',
        },
        include_content: {
          type: 'boolean',
          description: 'Include full text content (default: false for metadata only)',
          default: false,
        },
      },
      required: ['document_id'],
    },
  },
  {
    name: 'query_knowledge',
    description:
      'Ask a question and get a cited answer from the document vault. Returns answer with source citations, or a structured refusal if confidence is insufficient.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'Natural language question to ask against the vault',
        },
        conversation_id: {
          type: 'string',
          description: 'Optional conversation ID for multi-turn context',
        },
        model: {
          type: 'string',
          description: "LLM model override (default: user's configured model)",
          enum: MODELS,
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'list_documents',
    description: 'List all documents in the vault with metadata',
    inputSchema: {
      type: 'object',
      properties: {
        limit: { type: 'integer', description: 'Maximum results (1-100, default 50)', default: 50 },
        offset: { type: 'integer', description: 'Pagination offset', default: 0 },
        sort: {
          type: 'string',
          description: 'Sort field',
          enum: ['title', 'uploaded_at', 'size'],
          default: 'uploaded_at',
        },
      },
    },
  },
]

/** A tool result whose only content is JSON text, as RAGbox answers. */
export interface TextResult {
  content: Array<{ type: 'text'; text: string }>
  isError?: boolean
}

const json = (value: unknown): TextResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
})
const failure = (message: string): TextResult => ({ ...json({ error: message }), isError: true })

function boolArg(args: Record<string, unknown>, name: string): boolean {
  const value = args[name] ?? false
  if (typeof value !== 'boolean')
    throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: "${name}" must be a boolean`)
  return value
}

const round2 = (value: number): number => Math.round(value * 100) / 100

/** RAGbox's tools over the vaults, one search index per vault. */
export class RagboxTools {
  private readonly indexes = new Map<string, ChunkIndex>()

  private index(grant: KeyGrant): ChunkIndex {
    let index = this.indexes.get(grant.vault)
    if (!index) {
      index = new ChunkIndex(vaultDocs(grant), getCorpus().chunksOf)
      this.indexes.set(grant.vault, index)
    }
    return index
  }

  /** Runs one tool for a key; unknown tools are -32602, bad arguments -32602. */
  call(name: string, args: Record<string, unknown>, grant: KeyGrant): TextResult {
    switch (name) {
      case 'search_documents':
        return this.search(args, grant)
      case 'get_document':
        return this.get(args, grant)
      case 'query_knowledge':
        return this.query(args, grant)
      case 'list_documents':
        return this.list(args, grant)
      default:
        throw new RpcError(RPC.INVALID_PARAMS, `Unknown tool: ${name}`)
    }
  }

  private search(args: Record<string, unknown>, grant: KeyGrant): TextResult {
    const query = stringArg(args, 'query', true)
    const limit = intArg(args, 'limit', 1, 20, 5)
    const privileged = boolArg(args, 'privilege_mode')
    if (privileged && !grant.elevated) {
      return failure('privilege_mode requires an API key with elevated access')
    }
    const accept = (doc: Doc): boolean => doc.tier !== 'privileged' || privileged
    const hits = this.index(grant).searchDocs(query, accept, limit)
    const top = hits[0]?.score ?? 1
    const terms = queryTerms(query)
    return json(
      hits.map((hit) => {
        const cov = coverage(`${hit.doc.title} ${hit.chunk.heading} ${hit.chunk.text}`, terms)
        return {
          id: vaultId(hit.doc),
          title: hit.doc.title,
          relevance: round2(Math.max(0.05, 0.99 * (hit.score / top) * (0.5 + 0.5 * cov))),
          snippet: bestSentence(hit.chunk.text, terms, 200),
          security_tier: hit.doc.tier,
        }
      }),
    )
  }

  private find(id: string, grant: KeyGrant): Doc | undefined {
    return vaultDocs(grant).find((doc) => vaultId(doc) === id)
  }

  private get(args: Record<string, unknown>, grant: KeyGrant): TextResult {
    const id = stringArg(args, 'document_id', true)
    const content = boolArg(args, 'include_content')
    const doc = this.find(id, grant)
    if (!doc) return failure(`Document not found in this vault: ${id}`)
    if (!visibleTo(doc, grant))
      return failure(`Document ${id} is privileged; it needs an API key with elevated access`)
    return json(content ? { ...docMeta(doc), content: docText(doc) } : docMeta(doc))
  }

  private query(args: Record<string, unknown>, grant: KeyGrant): TextResult {
    const query = stringArg(args, 'query', true)
    stringArg(args, 'conversation_id')
    const model = stringArg(args, 'model')
    if (model !== undefined && !MODELS.includes(model)) {
      throw new RpcError(
        RPC.INVALID_PARAMS,
        `Invalid params: "model" must be one of ${MODELS.join(', ')}`,
      )
    }
    const terms = queryTerms(query)
    const hits = this.index(grant)
      .searchPhrases([query], (doc) => visibleTo(doc, grant), 3)
      .filter(
        (hit) => coverage(`${hit.doc.title} ${hit.chunk.heading} ${hit.chunk.text}`, terms) > 0,
      )
    const best = hits[0]
    const cov = best
      ? coverage(`${best.doc.title} ${best.chunk.heading} ${best.chunk.text}`, terms)
      : 0
    const confidence = best ? round2(0.2 + 0.75 * cov) : 0.1
    if (!best || confidence < SILENCE_THRESHOLD) {
      const reason = best
        ? `The closest documents only partly match this question (confidence ${confidence.toFixed(2)} < ${SILENCE_THRESHOLD.toFixed(2)}); not answering to avoid guessing.`
        : 'No documents in the vault contain information about this topic.'
      const silence = { answer: '', confidence, sources: [], silence: true }
      return json(broken('ragbox.silence') ? silence : { ...silence, silence_reason: reason })
    }
    const used = hits.slice(0, 2)
    const answer = [...new Set(used.map((hit) => bestSentence(hit.chunk.text, terms, 300)))].join(
      ' ',
    )
    const sources = used.map((hit) => ({
      document: hit.doc.title || hit.doc.fileName,
      page: Math.floor(hit.chunk.index / 2) + 1,
      section: hit.chunk.heading,
      relevance: round2(Math.min(0.99, hit.score / 1.5)),
    }))
    return json({ answer, confidence, sources, silence: false })
  }

  private list(args: Record<string, unknown>, grant: KeyGrant): TextResult {
    const limit = intArg(args, 'limit', 1, 100, 50)
    const offset = intArg(args, 'offset', 0, 1_000_000, 0)
    const sort = stringArg(args, 'sort') ?? 'uploaded_at'
    if (!['title', 'uploaded_at', 'size'].includes(sort)) {
      throw new RpcError(
        RPC.INVALID_PARAMS,
        'Invalid params: "sort" must be title, uploaded_at or size',
      )
    }
    const docs = vaultDocs(grant)
      .filter((doc) => visibleTo(doc, grant))
      .map(docMeta)
    const key = sort === 'size' ? 'size_bytes' : sort
    docs.sort((a, b) => {
      const [x, y] = [a[key] as string | number, b[key] as string | number]
      const order = x < y ? -1 : x > y ? 1 : 0
      return sort === 'title' ? order : -order
    })
    const documents = docs
      .slice(offset, offset + limit)
      .map(({ id, title, filename, size_bytes, security_tier, uploaded_at }) => ({
        id,
        title,
        filename,
        size_bytes,
        security_tier,
        uploaded_at,
      }))
    return json({ documents, total: docs.length, limit, offset })
  }
}
