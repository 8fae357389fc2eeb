import { ConsoleError } from '#shared/errors'
import type { Resource } from '#shared/model/rag'
import type { CallOptions, ServerSession } from '../pool/types'
import {
  asToolResult,
  clampInt,
  mergePages,
  searchPerSource,
  serverError,
  type SourceCall,
} from './calls'
import { HitCollector, type HitDraft } from './hits'
import { jsonFromText, parseJson, throwIfToolError } from './payload'
import { searchDocumentsSignals } from './search-documents'
import { Fields, Violations, eachRecord, expectRecord, isRecord, type JsonRecord } from './shape'
import type {
  DescribeOutput,
  DialectAdapter,
  DiscoverOutput,
  SearchInput,
  SearchOutput,
} from './types'

/**
 * Spec 004 (VTEX IO RAG server): `search_documents(query, category, tags, author, limit)`, data
 * sources as `rag://documents/category/{category}` and `rag://documents/tag/{tag}` resources,
 * and a non-standard `handshake` method. Replies are JSON in the text block (tools) or in
 * `contents[].text` (resources).
 */

const SEARCH = 'search_documents'
const SEARCH_MAX = 100
/** At most this many `resources/list` pages per discovery. */
export const LIST_MAX_PAGES = 10
const SOURCE_URI = /^rag:\/\/documents\/(category|tag)\/(.+)$/

export type VtexSource = { kind: 'category' | 'tag'; value: string }

function decode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * A data source from its id (`category/Product`, `tag/pricing`) or its `rag://` URI; undefined
 * for anything else.
 */
export function parseSourceRef(ref: string): VtexSource | undefined {
  const match = SOURCE_URI.exec(ref.startsWith('rag://') ? ref : `rag://documents/${ref}`)
  if (!match) return undefined
  return { kind: match[1] as VtexSource['kind'], value: decode(match[2] as string) }
}

const sourceId = (source: VtexSource): string => `${source.kind}/${source.value}`
const sourceUri = (source: VtexSource): string =>
  `rag://documents/${source.kind}/${encodeURIComponent(source.value)}`

/** Reads one vtex document into a hit draft (search results and resource contents alike). */
function readDocument(doc: Fields, source: string | undefined): HitDraft {
  const category = doc.string('category')
  const tags = doc.strings('tags')
  const author = doc.string('author')
  const created = doc.string('createdDate')
  const updated = doc.string('updatedDate')
  const provenance: JsonRecord = {}
  if (category !== undefined) provenance.category = category
  if (tags !== undefined) provenance.tags = tags
  if (author !== undefined) provenance.author = author
  return {
    id: doc.string('id', { required: true }),
    title: doc.string('title', { required: true }),
    text: doc.string('content', { required: true }),
    summary: doc.string('summary'),
    // Spec 004 sends no score; one a server adds is kept.
    score: doc.score('score'),
    sourceId: source ?? (category !== undefined ? `category/${category}` : undefined),
    timestamp: updated ?? created,
    provenance: Object.keys(provenance).length > 0 ? provenance : undefined,
  }
}

/** Reads the document list under `key` of a parsed reply into `hits`. */
function readDocuments(
  value: unknown,
  path: string,
  key: string,
  out: Violations,
  hits: HitCollector,
  source: string | undefined,
): void {
  let items: unknown[]
  let itemsPath = path
  if (Array.isArray(value)) {
    out.add('unexpected_envelope', path, `expected an object with \`${key}\`, got an array`)
    items = value
  } else {
    const root = expectRecord(value, path, out, 'the reply')
    if (!root) return
    const fields = new Fields(root, path, out)
    items = fields.array(key, { required: true }) ?? []
    itemsPath = fields.at(key)
    fields.integer('total')
    fields.boolean('hasMore')
  }
  eachRecord(items, itemsPath, out, (doc) => {
    hits.add(doc.obj, doc.path, 'id', () => readDocument(doc, source))
  })
}

/** Parses a `search_documents` reply; never throws. */
export function parseVtexSearch(raw: unknown, server: string, source?: string): SearchOutput {
  const out = new Violations()
  const hits = new HitCollector(server, out)
  const result = asToolResult(raw, out)
  const located = isRecord(raw) ? jsonFromText(result, out) : undefined
  if (located) readDocuments(located.value, located.path, 'results', out, hits, source)
  return { hits: hits.hits, violations: out.list, sourceErrors: [], raw }
}

/** Parses a `resources/read` reply of a document source; never throws. */
export function parseVtexRead(raw: unknown, server: string, source?: string): SearchOutput {
  const out = new Violations()
  const hits = new HitCollector(server, out)
  const root = expectRecord(raw, '', out, 'a resources/read result')
  const contents = root
    ? (new Fields(root, '', out).array('contents', { required: true }) ?? [])
    : []
  eachRecord(contents, 'contents', out, (content) => {
    const text = content.string('text', { required: true })
    if (text === undefined) return
    const value = parseJson(text, content.at('text'), out)
    if (value !== undefined)
      readDocuments(value, content.at('text'), 'documents', out, hits, source)
  })
  return { hits: hits.hits, violations: out.list, sourceErrors: [], raw }
}

/** Parses one `resources/list` page: category and tag resources become sources. */
export function parseVtexResources(
  raw: unknown,
  server: string,
): DiscoverOutput & { nextCursor?: string } {
  const out = new Violations()
  const resources: Resource[] = []
  const root = expectRecord(raw, '', out, 'a resources/list result')
  const fields = new Fields(root ?? {}, '', out)
  const items = root ? (fields.array('resources', { required: true }) ?? []) : []
  eachRecord(items, 'resources', out, (item) => {
    const uri = item.string('uri', { required: true })
    const name = item.string('name', { required: true })
    const description = item.string('description')
    const source = uri === undefined ? undefined : parseSourceRef(uri)
    if (!uri || !source) return
    const resource: Resource = {
      server,
      id: sourceId(source),
      name: name ?? source.value,
      sourceType: source.kind,
      // Spec 004: "Currently, the service allows all requests".
      authRequired: false,
      authMode: 'none',
      groups: [],
      scopes: [],
      // Selecting a source narrows the search; with none selected everything is searched.
      defaultSelected: false,
      uri,
    }
    if (description !== undefined) resource.description = description
    resources.push(resource)
  })
  const output: DiscoverOutput & { nextCursor?: string } = { resources, violations: out.list, raw }
  const cursor = fields.string('nextCursor')
  if (cursor) output.nextCursor = cursor
  return output
}

function searchArgs(input: SearchInput, source: VtexSource | undefined): JsonRecord {
  const filters = input.filters ?? {}
  const args: JsonRecord = { query: input.query, limit: clampInt(input.topK, 1, SEARCH_MAX) }
  if (typeof filters.category === 'string') args.category = filters.category
  if (typeof filters.author === 'string') args.author = filters.author
  const tags = Array.isArray(filters.tags) ? filters.tags.filter((t) => typeof t === 'string') : []
  if (source?.kind === 'category') args.category = source.value
  if (source?.kind === 'tag' && !tags.includes(source.value)) tags.push(source.value)
  if (tags.length > 0) args.tags = tags
  return args
}

async function searchOnce(
  session: ServerSession,
  input: SearchInput,
  source: VtexSource | undefined,
  options: CallOptions,
): Promise<SearchOutput> {
  const raw = await session.callTool(SEARCH, searchArgs(input, source), options)
  throwIfToolError(raw, session, SEARCH)
  return parseVtexSearch(raw, session.serverId, source && sourceId(source))
}

export const vtexAdapter: DialectAdapter = {
  id: 'vtex',

  detect(tools) {
    const signals = searchDocumentsSignals(tools)
    if (!signals.present) return { matches: false, reason: 'no search_documents tool' }
    if (signals.ragbox.length > 0) {
      return {
        matches: false,
        reason: `search_documents with RAGbox's ${signals.ragbox.join(', ')}`,
      }
    }
    if (signals.vtex.length === 0) {
      return { matches: false, reason: 'search_documents without category/tags/author parameters' }
    }
    return { matches: true, reason: `has search_documents with ${signals.vtex.join(', ')}` }
  },

  capabilities() {
    return { discover: true, search: true, synthesize: false, verify: false, read: true }
  },

  async discover(session, options) {
    const pages: DiscoverOutput[] = []
    let cursor: string | undefined
    for (let page = 0; page < LIST_MAX_PAGES; page++) {
      const raw = await session.request('resources/list', cursor ? { cursor } : undefined, options)
      const parsed = parseVtexResources(raw, session.serverId)
      pages.push(parsed)
      cursor = parsed.nextCursor
      if (!cursor) break
    }
    return mergePages(pages)
  },

  /**
   * Without selected sources: one call. With sources: one call per source (its category, or its
   * tag added to the tags filter), in parallel, so the result is the union of the sources.
   */
  async search(session, input, options) {
    if (input.sources.length === 0) return searchOnce(session, input, undefined, options)
    const calls: SourceCall<SearchOutput>[] = []
    const unknown: SearchOutput['sourceErrors'] = []
    for (const ref of input.sources) {
      const source = parseSourceRef(ref)
      if (source)
        calls.push({ sources: [ref], run: () => searchOnce(session, input, source, options) })
      else {
        unknown.push({
          sourceId: ref,
          error: serverError(
            session.serverId,
            'not_found',
            `server ${session.serverId}: ${ref} is not a category or tag source; run discovery again`,
          ),
        })
      }
    }
    if (calls.length === 0) {
      throw new ConsoleError(
        unknown[0]?.error ?? serverError(session.serverId, 'not_found', 'no source'),
      )
    }
    const output = await searchPerSource(calls)
    output.sourceErrors.push(...unknown)
    return output
  },

  /** Reads a category or tag source (`category/Product` or its `rag://` URI) in full. */
  async read(session, ref, options) {
    const source = parseSourceRef(ref)
    if (!source) {
      throw new ConsoleError({
        code: 'invalid_argument',
        origin: 'local',
        server: session.serverId,
        message: `server ${session.serverId}: ${ref} is not a vtex category or tag source`,
      })
    }
    const raw = await session.request('resources/read', { uri: sourceUri(source) }, options)
    return parseVtexRead(raw, session.serverId, sourceId(source))
  },

  /** The `handshake` result: the one the pool kept, else asked for here. */
  async describe(session, options): Promise<DescribeOutput> {
    const known = { ...session.serverInfo }
    let handshake = known.handshake
    if (handshake === undefined) {
      try {
        handshake = await session.request(
          'handshake',
          { version: '1.0.0', capabilities: ['tools', 'resources'] },
          options,
        )
      } catch (error) {
        // A server without the method answers with an error; that only means "no handshake".
        if (error instanceof ConsoleError && error.origin === 'server') {
          return { serverInfo: known, violations: [] }
        }
        throw error
      }
    }
    return parseHandshake(handshake, known)
  },
}

/** Validates a handshake result and folds its `serverInfo` into what is known; never throws. */
export function parseHandshake(
  handshake: unknown,
  known: DescribeOutput['serverInfo'] = {},
): DescribeOutput {
  const out = new Violations()
  const serverInfo = { ...known, handshake }
  const root = expectRecord(handshake, '', out, 'a handshake result')
  if (root) {
    const fields = new Fields(root, '', out)
    fields.string('version', { required: true })
    fields.strings('capabilities')
    fields.boolean('compatible', { required: true })
    const info = fields.record('serverInfo')
    if (info) {
      const infoFields = new Fields(info, 'serverInfo', out)
      const name = infoFields.string('name')
      const version = infoFields.string('version')
      if (name !== undefined) serverInfo.name ??= name
      if (version !== undefined) serverInfo.version ??= version
    }
  }
  return { serverInfo, violations: out.list }
}
