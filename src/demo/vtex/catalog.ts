import { broken } from '../breaks'
import { docText, docsOf, getCorpus } from '../data/corpus'
import type { Doc, SourceId } from '../data/types'
import { RPC, RpcError } from '../http/jsonrpc'
import { ChunkIndex } from '../search/index'
import { sentences, truncate } from '../search/text'

/** The sources this family serves. */
export const VTEX_SOURCES: SourceId[] = ['product', 'it-kb']

/** A document as VTEX's RAG server returns it. */
export interface VtexDoc {
  id: string
  title: string
  content: string
  category: string
  tags: string[]
  author: string
  createdDate: string
  updatedDate: string
  summary: string
}

export interface SearchArgs {
  query?: string | undefined
  category?: string | undefined
  tags?: string[] | undefined
  author?: string | undefined
  limit: number
}

/** Results per request at most (spec: "Max Results: 100 documents per request"). */
export const MAX_RESULTS = 100
const CACHE_TTL_MS = 5 * 60_000

function toVtex(doc: Doc): VtexDoc {
  const first = doc.sections[0]?.text ?? ''
  return {
    id: doc.id,
    title: doc.title,
    content: truncate(docText(doc), 2000),
    category: doc.category,
    tags: doc.tags,
    author: doc.author,
    createdDate: doc.created,
    updatedDate: doc.updated,
    summary: truncate(sentences(first)[0] ?? first, 160),
  }
}

const byUpdated = (a: Doc, b: Doc): number =>
  a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0

/** The VTEX slice of the corpus: text search with filters, and the `rag://` views. */
export class VtexCatalog {
  private readonly docs = docsOf(VTEX_SOURCES)
  private readonly index = new ChunkIndex(this.docs, getCorpus().chunksOf)
  private readonly cache = new Map<string, { at: number; value: unknown }>()

  /** Distinct categories with document counts, by name. */
  categories(): Array<{ name: string; count: number }> {
    return this.counts(this.docs.map((doc) => [doc.category]))
  }

  /** Distinct tags with document counts, by name. */
  tags(): Array<{ name: string; count: number }> {
    return this.counts(this.docs.map((doc) => doc.tags))
  }

  private counts(lists: string[][]): Array<{ name: string; count: number }> {
    const counts = new Map<string, number>()
    for (const list of lists) for (const name of list) counts.set(name, (counts.get(name) ?? 0) + 1)
    return [...counts]
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => a.name.localeCompare(b.name))
  }

  /** `search_documents`, cached for five minutes per argument set. */
  search(args: SearchArgs): { results: VtexDoc[]; total: number; hasMore: boolean } {
    const key = JSON.stringify(args)
    const cached = this.cache.get(key)
    if (cached && Date.now() - cached.at < CACHE_TTL_MS)
      return cached.value as ReturnType<VtexCatalog['search']>
    const author = args.author?.toLowerCase()
    const keep = (doc: Doc): boolean =>
      (!args.category ||
        broken('vtex.filters') ||
        doc.category.toLowerCase() === args.category.toLowerCase()) &&
      (!args.tags?.length || args.tags.some((tag) => doc.tags.includes(tag.toLowerCase()))) &&
      (!author || doc.author.toLowerCase().includes(author))
    const matched = args.query?.trim()
      ? this.index.searchDocs(args.query, keep, 10_000).map((hit) => hit.doc)
      : this.docs.filter(keep).sort(byUpdated)
    const value = {
      results: matched.slice(0, args.limit).map(toVtex),
      total: matched.length,
      hasMore: matched.length > args.limit,
    }
    if (this.cache.size > 500) this.cache.clear()
    this.cache.set(key, { at: Date.now(), value })
    return value
  }

  /** `resources/list`: the fixed views plus one per category and per tag. */
  resources(): Array<{ uri: string; name: string; description: string; mimeType: string }> {
    const entry = (uri: string, name: string, description: string) => ({
      // Broken: resources named outside the rag:// scheme.
      uri: broken('vtex.resources') ? uri.replace(/^rag:/, 'doc:') : uri,
      name,
      description,
      mimeType: 'application/json',
    })
    return [
      entry('rag://documents', 'All Documents', 'Access to all documents in the knowledge base'),
      entry('rag://categories', 'Document Categories', 'List of available document categories'),
      entry('rag://tags', 'Document Tags', 'List of available document tags'),
      ...this.categories().map(({ name }) =>
        entry(
          `rag://documents/category/${encodeURIComponent(name)}`,
          `${name} Documents`,
          `Documents in the ${name} category`,
        ),
      ),
      ...this.tags().map(({ name }) =>
        entry(
          `rag://documents/tag/${encodeURIComponent(name)}`,
          `Documents tagged with ${name}`,
          `Documents tagged with ${name}`,
        ),
      ),
    ]
  }

  /** `resources/read` of a `rag://` URI as its JSON payload; -32602 for an unknown URI. */
  read(uri: string): Record<string, unknown> {
    const page = (docs: Doc[]) => ({
      documents: docs.slice(0, MAX_RESULTS).map(toVtex),
      total: docs.length,
      hasMore: docs.length > MAX_RESULTS,
    })
    if (uri === 'rag://documents') return page([...this.docs].sort(byUpdated))
    if (uri === 'rag://categories')
      return { categories: this.categories(), total: this.categories().length }
    if (uri === 'rag://tags') return { tags: this.tags(), total: this.tags().length }
    const match = /^rag:\/\/documents\/(category|tag)\/(.+)$/.exec(uri)
    if (match) {
      const value = decodeURIComponent(match[2]!)
      const docs = this.docs.filter((doc) =>
        match[1] === 'category' ? doc.category === value : doc.tags.includes(value),
      )
      if (docs.length > 0) return { [match[1]!]: value, ...page(docs.sort(byUpdated)) }
    }
    throw new RpcError(RPC.INVALID_PARAMS, `Resource not found: ${uri}`, { httpStatusCode: 404 })
  }
}
