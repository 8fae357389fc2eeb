import MiniSearch from 'minisearch'
import type { Chunk, Doc } from '../data/types'
import { coverage, processTerm, queryTerms, tokenize } from './text'

/** One retrieved chunk with its BM25 score (or fused score for multi-phrase search). */
export interface ChunkHit {
  chunk: Chunk
  doc: Doc
  score: number
}

/** One retrieved document: its best chunk and that chunk's score. */
export interface DocHit extends ChunkHit {
  /** Number of the document's chunks that matched. */
  matches: number
}

interface Indexed {
  id: string
  title: string
  heading: string
  text: string
  tags: string
}

/** Weight of extra phrases relative to phrase 0 (the user's exact words) in fused search. */
const EXTRA_PHRASE_WEIGHT = 0.6
/** At most this many chunks of one document survive multi-phrase dedupe. */
const CHUNKS_PER_DOC = 2
/** Queries whose matches an index keeps. */
const RECENT_QUERIES = 256

/**
 * Full-text retrieval over document chunks: MiniSearch (BM25+) with title, heading and tag
 * boosts, prefix matching for longer terms and light fuzziness for long ones.
 */
export class ChunkIndex {
  private readonly search: MiniSearch<Indexed>
  private readonly chunks = new Map<string, Chunk>()
  private readonly docs = new Map<string, Doc>()
  /** Recent queries' matches: a fan-out asks many endpoints the same query at once. */
  private readonly recent = new Map<string, ReturnType<MiniSearch['search']>>()

  constructor(docs: readonly Doc[], chunksOf: (docId: string) => Chunk[]) {
    this.search = new MiniSearch<Indexed>({
      fields: ['title', 'heading', 'text', 'tags'],
      tokenize,
      processTerm,
      searchOptions: {
        boost: { title: 3, heading: 2, tags: 1.5 },
        prefix: (term) => term.length > 3,
        fuzzy: (term) => (term.length > 5 ? 0.2 : false),
      },
    })
    const rows: Indexed[] = []
    for (const doc of docs) {
      this.docs.set(doc.id, doc)
      for (const chunk of chunksOf(doc.id)) {
        this.chunks.set(chunk.id, chunk)
        rows.push({
          id: chunk.id,
          title: doc.title,
          heading: chunk.heading,
          text: chunk.text,
          tags: doc.tags.join(' '),
        })
      }
    }
    this.search.addAll(rows)
  }

  /** Number of indexed chunks. */
  get size(): number {
    return this.chunks.size
  }

  /** Chunks matching one query, best first, among documents `accept` lets through. */
  searchChunks(query: string, accept: (doc: Doc) => boolean = () => true, limit = 50): ChunkHit[] {
    const hits: ChunkHit[] = []
    for (const result of this.matches(query)) {
      const chunk = this.chunks.get(result.id as string)
      const doc = chunk && this.docs.get(chunk.docId)
      if (!chunk || !doc || !accept(doc)) continue
      hits.push({ chunk, doc, score: result.score })
      if (hits.length >= limit) break
    }
    return hits
  }

  private matches(query: string): ReturnType<MiniSearch['search']> {
    let results = this.recent.get(query)
    if (!results) {
      results = this.search.search(query)
      if (this.recent.size >= RECENT_QUERIES) this.recent.clear()
      this.recent.set(query, results)
    }
    return results
  }

  /**
   * Multi-phrase retrieval as spec 000 recommends: search every phrase independently, combine
   * and deduplicate, rerank. Each phrase's scores are normalised to its best hit; phrase 0 (the
   * user's exact input) weighs 1, the others {@link EXTRA_PHRASE_WEIGHT}; the fused score is
   * then boosted by how many of phrase 0's terms the chunk contains, and each document keeps
   * at most {@link CHUNKS_PER_DOC} chunks. `rerank: false` skips the term-coverage boost.
   */
  searchPhrases(
    phrases: readonly string[],
    accept: (doc: Doc) => boolean,
    limit: number,
    rerank = true,
  ): ChunkHit[] {
    const fused = new Map<string, ChunkHit>()
    phrases.forEach((phrase, i) => {
      const hits = this.searchChunks(phrase, accept, 100)
      const best = hits[0]?.score ?? 1
      const weight = i === 0 ? 1 : EXTRA_PHRASE_WEIGHT
      for (const hit of hits) {
        const add = (weight * hit.score) / best
        const seen = fused.get(hit.chunk.id)
        if (seen) seen.score += add
        else fused.set(hit.chunk.id, { ...hit, score: add })
      }
    })
    const terms = queryTerms(phrases[0] ?? '')
    const reranked = [...fused.values()]
      .map((hit) => {
        const text = `${hit.doc.title} ${hit.chunk.heading} ${hit.chunk.text}`
        return rerank ? { ...hit, score: hit.score * (1 + 0.5 * coverage(text, terms)) } : hit
      })
      .sort((a, b) => b.score - a.score)
    const perDoc = new Map<string, number>()
    const out: ChunkHit[] = []
    for (const hit of reranked) {
      const count = perDoc.get(hit.doc.id) ?? 0
      if (count >= CHUNKS_PER_DOC) continue
      perDoc.set(hit.doc.id, count + 1)
      out.push(hit)
      if (out.length >= limit) break
    }
    return out
  }

  /** Documents matching a query, ranked by their best chunk. */
  searchDocs(query: string, accept: (doc: Doc) => boolean = () => true, limit = 20): DocHit[] {
    const byDoc = new Map<string, DocHit>()
    for (const hit of this.searchChunks(query, accept, 500)) {
      const seen = byDoc.get(hit.doc.id)
      if (seen) seen.matches += 1
      else byDoc.set(hit.doc.id, { ...hit, matches: 1 })
    }
    return [...byDoc.values()].slice(0, limit)
  }
}
