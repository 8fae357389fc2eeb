import { ConsoleError } from '#shared/errors'
import type { Answer, Citation, Resource } from '#shared/model/rag'
import type { CallOptions, ServerSession } from '../pool/types'
import { asToolResult, clampInt, hasTool, mergePages } from './calls'
import { HitCollector, type HitDraft } from './hits'
import { jsonFromText, throwIfToolError } from './payload'
import { searchDocumentsSignals } from './search-documents'
import {
  Fields,
  Violations,
  eachRecord,
  expectRecord,
  isRecord,
  joinPath,
  jsonType,
  type JsonRecord,
} from './shape'
import type { DialectAdapter, DiscoverOutput, SearchOutput } from './types'

/**
 * Spec 003 (RAGbox): `search_documents`, `get_document`, `query_knowledge` (answer with sources,
 * or the "Silence Protocol"), `list_documents`. Every reply is JSON inside `content[0].text`; the
 * API key travels in `X-API-Key` (set by the pool). Its JSON-RPC errors -32000 (unauthorized) and
 * -32001 (rate limited) share numbers with the SDK's own errors, so they are mapped only when the
 * pool says the server sent them.
 */

const SEARCH = 'search_documents'
const GET = 'get_document'
const ASK = 'query_knowledge'
const LIST = 'list_documents'
/** Spec 003 limits: search 1–20 results, list 1–100 per page. */
const SEARCH_MAX = 20
const LIST_PAGE = 100
/** At most this many `list_documents` pages per discovery (bounded work on huge vaults). */
export const LIST_MAX_PAGES = 10

/** Maps RAGbox's own -32000 / -32001 (sent by the server) to `unauthorized` / `rate_limited`. */
export function mapRagboxError<T>(error: T, server: string): T | ConsoleError {
  if (!(error instanceof ConsoleError) || error.origin !== 'server') return error
  // Already mapped (by the pool, through the call's judgeError) or worded so by the server.
  if (error.code === 'unauthorized' || error.code === 'rate_limited') return error
  const rpcCode = error.details?.code
  if (rpcCode === -32000) {
    return new ConsoleError(
      {
        code: 'unauthorized',
        origin: 'server',
        server,
        message: `server ${server} refused the API key (RAGbox -32000): set its X-API-Key secret in Config → Secrets and reconnect`,
        details: { ...error.details, serverMessage: error.message },
      },
      { cause: error },
    )
  }
  if (rpcCode === -32001) {
    return new ConsoleError(
      {
        code: 'rate_limited',
        origin: 'server',
        server,
        message: `server ${server} is rate-limiting this API key (RAGbox -32001; 60 calls/min, 10 query_knowledge/min): wait and retry`,
        details: { ...error.details, serverMessage: error.message },
      },
      { cause: error },
    )
  }
  return error
}

async function call(
  session: ServerSession,
  tool: string,
  args: Record<string, unknown>,
  options: CallOptions,
): Promise<unknown> {
  let raw: unknown
  const server = session.serverId
  // The pool records the mapped code in health (and the audit log sees it), not server_error.
  const judgeError = (error: ConsoleError): ConsoleError => mapRagboxError(error, server)
  try {
    raw = await session.callTool(tool, args, { ...options, judgeError })
  } catch (error) {
    throw mapRagboxError(error, session.serverId)
  }
  throwIfToolError(raw, session, tool)
  return raw
}

/** The JSON in the text block, with its path; `{value: undefined}` when absent or broken. */
function readJson(raw: unknown, out: Violations): { value: unknown; path: string } {
  const located = jsonFromText(asToolResult(raw, out), out)
  return located ?? { value: undefined, path: 'content[0].text' }
}

/**
 * The list inside a reply that should be a JSON array; an object holding the list under one of
 * `keys` is accepted with an `unexpected_envelope`.
 */
function readList(
  value: unknown,
  path: string,
  out: Violations,
  keys: string[],
): { items: unknown[]; path: string } {
  if (Array.isArray(value)) return { items: value, path }
  if (value === undefined) return { items: [], path }
  const key = isRecord(value) ? keys.find((k) => Array.isArray(value[k])) : undefined
  out.add(
    'unexpected_envelope',
    path,
    key
      ? `expected a JSON array; found the list under \`${key}\``
      : `expected a JSON array, got ${jsonType(value)}`,
    key ? undefined : value,
  )
  return key
    ? { items: (value as JsonRecord)[key] as unknown[], path: joinPath(path, key) }
    : { items: [], path }
}

function documentProvenance(doc: Fields): JsonRecord | undefined {
  const keys = ['security_tier', 'pages', 'chunks', 'size_bytes', 'indexed']
  const kept = Object.fromEntries(keys.filter((k) => doc.has(k)).map((k) => [k, doc.obj[k]]))
  return Object.keys(kept).length > 0 ? kept : undefined
}

/** Parses a `search_documents` reply; never throws. */
export function parseRagboxSearch(raw: unknown, server: string): SearchOutput {
  const out = new Violations()
  const json = readJson(raw, out)
  const list = readList(json.value, json.path, out, ['results', 'documents'])
  const hits = new HitCollector(server, out)
  eachRecord(list.items, list.path, out, (doc) => {
    hits.add(doc.obj, doc.path, 'id', () => ({
      id: doc.string('id', { required: true }),
      title: doc.string('title', { required: true }),
      score: doc.score('relevance', { required: true }),
      snippet: doc.string('snippet', { required: true }),
      provenance: documentProvenance(doc),
    }))
  })
  return { hits: hits.hits, violations: out.list, sourceErrors: [], raw }
}

/** Parses a `get_document` reply (requested with content) into one hit; never throws. */
export function parseRagboxDocument(raw: unknown, server: string): SearchOutput {
  const out = new Violations()
  const json = readJson(raw, out)
  const hits = new HitCollector(server, out)
  const doc =
    json.value === undefined ? undefined : expectRecord(json.value, json.path, out, 'a document')
  if (doc) {
    const fields = new Fields(doc, json.path, out)
    hits.add(doc, json.path, 'id', (): HitDraft => {
      const id = fields.string('id', { required: true })
      return {
        id,
        sourceId: id,
        title: fields.string('title', { required: true }),
        fileName: fields.string('filename'),
        text: fields.string('content') ?? fields.string('text'),
        timestamp: fields.string('uploaded_at'),
        provenance: documentProvenance(fields),
      }
    })
  }
  return { hits: hits.hits, violations: out.list, sourceErrors: [], raw }
}

/** Parses one `list_documents` page into resources; never throws. */
export function parseRagboxList(raw: unknown, server: string): DiscoverOutput {
  const out = new Violations()
  const json = readJson(raw, out)
  const list = readList(json.value, json.path, out, ['documents', 'results'])
  const resources: Resource[] = []
  eachRecord(list.items, list.path, out, (doc) => {
    const id = doc.string('id', { required: true })
    if (id === undefined) return
    const title = doc.string('title')
    const filename = doc.string('filename')
    const tier = doc.string('security_tier')
    const chunks = doc.integer('chunks')
    const resource: Resource = {
      server,
      id,
      name: title ?? filename ?? id,
      sourceType: 'document',
      authRequired: true,
      authMode: 'api_key',
      groups: [],
      scopes: tier ? [tier] : [],
      defaultSelected: true,
    }
    if (filename !== undefined && filename !== resource.name) resource.description = filename
    if (chunks !== undefined) resource.counts = { chunks }
    resources.push(resource)
  })
  return { resources, violations: out.list, raw }
}

/** Parses a `query_knowledge` reply, including the Silence Protocol; never throws. */
export function parseRagboxAnswer(raw: unknown, server: string): Answer {
  const out = new Violations()
  const json = readJson(raw, out)
  const root =
    json.value === undefined ? undefined : expectRecord(json.value, json.path, out, 'the answer')
  const fields = new Fields(root ?? {}, json.path, out)
  const answer: Answer = {
    server,
    mode: 'server',
    text: '',
    citations: [],
    violations: out.list,
    raw,
  }
  if (!root) return answer
  answer.text = fields.string('answer', { required: true, allowEmpty: true }) ?? ''
  const confidence = fields.number('confidence', { required: true })
  if (confidence !== undefined) {
    if (confidence < 0 || confidence > 1) {
      out.add(
        'invalid_value',
        fields.at('confidence'),
        'confidence should be between 0 and 1',
        confidence,
      )
    }
    answer.confidence = confidence
  }
  const silence = fields.boolean('silence', { required: true })
  if (silence) {
    const reason = fields.string('silence_reason', { required: true })
    answer.silence = { reason: reason ?? 'the server gave no reason' }
    if (answer.text.trim() !== '') {
      out.add(
        'invalid_value',
        fields.at('answer'),
        'silence is true but an answer was given',
        answer.text,
      )
    }
  } else if (silence === false && answer.text.trim() === '') {
    out.add('missing_field', fields.at('answer'), 'silence is false but the answer is empty')
  }
  const sources = fields.array('sources', { required: true }) ?? []
  eachRecord(sources, fields.at('sources'), out, (source) => {
    const document = source.string('document', { required: true })
    const page = source.integer('page')
    const section = source.string('section')
    source.score('relevance')
    const citation: Citation = { n: answer.citations.length + 1, server }
    if (document !== undefined) citation.title = document
    const where = [section, page !== undefined ? `page ${page}` : undefined].filter(Boolean)
    if (where.length > 0) citation.snippet = where.join(', ')
    answer.citations.push(citation)
  })
  return answer
}

export const ragboxAdapter: DialectAdapter = {
  id: 'ragbox',
  judgeError: mapRagboxError,

  detect(tools) {
    const signals = searchDocumentsSignals(tools)
    if (!signals.present) return { matches: false, reason: 'no search_documents tool' }
    if (signals.ragbox.length === 0) {
      return { matches: false, reason: 'search_documents without RAGbox tools or privilege_mode' }
    }
    return { matches: true, reason: `has search_documents with ${signals.ragbox.join(', ')}` }
  },

  capabilities(tools) {
    const names = new Set(tools.map((tool) => tool.name))
    return {
      discover: names.has(LIST),
      search: names.has(SEARCH),
      synthesize: names.has(ASK),
      verify: false,
      read: names.has(GET),
    }
  },

  /** Every document of the vault is a source; pages through `list_documents` (bounded). */
  async discover(session, options) {
    if (!hasTool(session, LIST)) return { resources: [], violations: [], raw: null }
    const pages: DiscoverOutput[] = []
    for (let page = 0; page < LIST_MAX_PAGES; page++) {
      const raw = await call(session, LIST, { limit: LIST_PAGE, offset: page * LIST_PAGE }, options)
      const parsed = parseRagboxList(raw, session.serverId)
      pages.push(parsed)
      if (parsed.resources.length < LIST_PAGE) break
    }
    return mergePages(pages)
  },

  /**
   * `search_documents` has no source filter: when sources (documents) are selected, hits from
   * other documents are dropped here. `filters.privilege_mode: true` is passed through.
   */
  async search(session, input, options) {
    const args: Record<string, unknown> = {
      query: input.query,
      limit: clampInt(input.topK, 1, SEARCH_MAX),
    }
    if (input.filters?.privilege_mode === true) args.privilege_mode = true
    const raw = await call(session, SEARCH, args, options)
    const output = parseRagboxSearch(raw, session.serverId)
    if (input.sources.length > 0) {
      const wanted = new Set(input.sources)
      output.hits = output.hits.filter((hit) => wanted.has(hit.id))
    }
    for (const hit of output.hits) hit.sourceId = hit.id
    return output
  },

  async synthesize(session, input, options) {
    const raw = await call(session, ASK, { query: input.query }, options)
    return parseRagboxAnswer(raw, session.serverId)
  },

  async read(session, ref, options) {
    const raw = await call(session, GET, { document_id: ref, include_content: true }, options)
    return parseRagboxDocument(raw, session.serverId)
  },
}
