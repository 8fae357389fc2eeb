import { canRead, directoryGroups } from '../access'
import { broken } from '../breaks'
import { getCorpus } from '../data/corpus'
import type { Doc } from '../data/types'
import { citationUrl, type LinkContext } from '../links'
import { ChunkIndex, type ChunkHit } from '../search/index'
import { bestSentence, queryTerms, truncate } from '../search/text'
import { citeSentences, providedPassages } from './answer'
import { authorize, matchesFilters, offlineError, type Authorized } from './authorize'
import { reportHtml } from './report'
import { RESOURCES, resourceVisible, type ResourceDef } from './resources'
import type { Envelope, SearchArgs, SourceError, SynthesisArgs } from './types'

export type { Envelope } from './types'

export interface RagToolsOptions {
  /** Instance name reported as `meta_data.provider`. */
  name: string
  /** Resource ids this instance serves. */
  resources: string[]
  docHost: string
  ttlSeconds: number
  secret: string
}

const CONTRACT = 'rag-tools-v1'

/** The three tools of specs 001/002 over one slice of the corpus, access by `username`. */
export class RagTools {
  private readonly index: ChunkIndex
  private readonly resources: ResourceDef[]

  constructor(private readonly options: RagToolsOptions) {
    this.resources = options.resources.map((id) => {
      const resource = RESOURCES[id]
      if (!resource) throw new Error(`unknown rag-tools-v1 resource "${id}"`)
      return resource
    })
    const sources = this.resources.flatMap((resource) => (resource.source ? [resource.source] : []))
    const corpus = getCorpus()
    this.index = new ChunkIndex(
      corpus.docs.filter((doc) => sources.includes(doc.source)),
      corpus.chunksOf,
    )
  }

  private meta(started: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      provider: this.options.name,
      contract_version: CONTRACT,
      version: '1.0.0',
      elapsed_ms: Math.round(performance.now() - started),
      ...extra,
    }
  }

  /** `rag_discover_resources`: the resources this user may see. */
  discover(args: {
    username: string
    filters?:
      | { search?: string | undefined; page?: number | undefined; page_size?: number | undefined }
      | undefined
  }): Envelope {
    const started = performance.now()
    const groups = directoryGroups(args.username)
    if (!groups) return this.unknownUser(args.username, { resources: [] }, started)
    const corpus = getCorpus()
    const needle = args.filters?.search?.toLowerCase()
    const visible = this.resources
      .filter((resource) => resourceVisible(resource, groups))
      .filter(
        (resource) =>
          !needle || resource.name.toLowerCase().includes(needle) || resource.id.includes(needle),
      )
    const pageSize = args.filters?.page_size ?? 50
    const page = args.filters?.page ?? 1
    const resources = visible.slice((page - 1) * pageSize, page * pageSize).map((resource) => {
      const docs = corpus.docs.filter((doc) => doc.source === resource.source)
      const lastIndexed = docs.reduce(
        (latest, doc) => (doc.updated > latest ? doc.updated : latest),
        '',
      )
      return {
        id: resource.id,
        name: resource.name,
        sourceType: resource.sourceType,
        sourceId: `acme-${resource.id}`,
        authRequired: resource.authMode !== 'none',
        authMode: resource.authMode,
        groups: resource.groups,
        scopes: ['read'],
        defaultSelected: resource.defaultSelected,
        ...(lastIndexed ? { lastIndexed } : {}),
        ...(resource.source
          ? {
              counts: {
                docs: docs.length,
                chunks: docs.reduce((sum, doc) => sum + doc.sections.length, 0),
              },
            }
          : {}),
      }
    })
    const results: Record<string, unknown> = {
      resources,
      paging: { page, page_size: pageSize, total: visible.length },
    }
    // Listed, so it can be found, but said to be unsearchable before anyone tries.
    const offline = visible.filter((resource) => resource.offline)
    if (offline.length > 0) results.errors = offline.map((resource) => offlineError(resource.id))
    return { results, meta_data: this.meta(started) }
  }

  /** `rag_get_raw_results`: hits from the allowed sources, errors for the others. */
  raw(args: SearchArgs): Envelope {
    const started = performance.now()
    const auth = authorize(this.resources, args)
    if (!auth) return this.unknownUser(args.username, { hits: [] }, started)
    const topK = args.top_k ?? 8
    const { hits, total } = this.search(args, auth, topK, args.ranking?.rerank !== false)
    const results: Record<string, unknown> = {
      hits: hits.map((hit) => this.toHit(hit, args)),
      stats: {
        total_found: total,
        top_k: topK,
        elapsed_ms: Math.round(performance.now() - started),
      },
    }
    return this.withErrors(results, auth, started)
  }

  /** `rag_get_synthesized_results`: an extractive answer with numbered citations and a report. */
  synthesize(args: SynthesisArgs): Envelope {
    const started = performance.now()
    const auth = authorize(this.resources, args)
    if (!auth) return this.unknownUser(args.username, { answer: '', citations: [] }, started)
    const style = args.synthesis_params?.style ?? 'short'
    const topK = args.top_k ?? (style === 'short' ? 3 : 5)
    const terms = queryTerms(args.query)
    const provided = args.provided_context?.hits
    const passages = provided?.length
      ? providedPassages(provided)
      : this.search(args, auth, topK, true).hits.map((hit) => ({
          title: hit.doc.title || hit.doc.fileName,
          text: hit.chunk.text,
          uri: citationUrl(hit.doc, this.links(args.username)),
          resourceId: hit.doc.source,
        }))
    const used = passages.slice(0, topK)
    let answer = used.length
      ? citeSentences(used.map((passage) => bestSentence(passage.text, terms, 300)))
      : 'No passage in the selected sources answers this question.'
    const maxChars = args.synthesis_params?.max_chars
    const truncated = maxChars !== undefined && answer.length > maxChars
    if (truncated) answer = truncate(answer, maxChars)
    const citations = used.map((passage, i) => ({
      n: i + 1,
      resourceId: passage.resourceId,
      title: passage.title,
      ...(passage.uri ? { uri: passage.uri } : {}),
      snippet: truncate(passage.text, 200),
    }))
    const results: Record<string, unknown> = {
      answer,
      citations,
      limits: truncated
        ? { truncated: true, reason: `answer cut to max_chars=${maxChars}` }
        : { truncated: false },
    }
    const envelope = this.withErrors(results, auth, started, {
      model: args.synthesis_params?.model ?? 'extractive-demo',
      tokens: { input: terms.length, output: answer.split(/\s+/).length },
    })
    const html = reportHtml(args.query, answer, citations)
    envelope.artifacts = [
      {
        name: 'synthesis-report.html',
        mime: 'text/html',
        b64: Buffer.from(html).toString('base64'),
      },
    ]
    return envelope
  }

  private links(username: string): LinkContext {
    return {
      docHost: this.options.docHost,
      userId: username.trim().toLowerCase(),
      ttlSeconds: this.options.ttlSeconds,
      secret: this.options.secret,
    }
  }

  private search(
    args: SearchArgs,
    auth: Authorized,
    topK: number,
    rerank: boolean,
  ): { hits: ChunkHit[]; total: number } {
    const sources = auth.allowed.flatMap((resource) => (resource.source ? [resource.source] : []))
    if (sources.length === 0) return { hits: [], total: 0 }
    const userId = args.username.trim().toLowerCase()
    const accept = (doc: Doc): boolean =>
      sources.includes(doc.source) &&
      canRead(doc, userId, auth.groups) &&
      matchesFilters(doc, args.filters)
    return {
      hits: this.index.searchPhrases([args.query], accept, topK, rerank),
      total: this.index.searchChunks(args.query, accept, 10_000).length,
    }
  }

  private toHit(hit: ChunkHit, args: SearchArgs): Record<string, unknown> {
    const uri = citationUrl(hit.doc, this.links(args.username))
    return {
      id: hit.chunk.id,
      score: Math.round(Math.min(1, hit.score / 1.5) * 1000) / 1000,
      title: hit.doc.title,
      snippet: bestSentence(hit.chunk.text, queryTerms(args.query)),
      chunk: hit.chunk.text,
      ...(uri ? { uri } : {}),
      resourceId: hit.doc.source,
      sourceId: hit.doc.id,
      provenance: {
        file: hit.doc.fileName,
        section: hit.chunk.heading,
        chunk: hit.chunk.index,
        author: hit.doc.author,
      },
      timestamp: hit.doc.updated,
    }
  }

  private withErrors(
    results: Record<string, unknown>,
    auth: Authorized,
    started: number,
    extra: Record<string, unknown> = {},
  ): Envelope {
    // One error as an object, several as an array of them, next to the partial results.
    if (auth.errors.length === 1) results.error = auth.errors[0]
    else if (auth.errors.length > 1) results.error = auth.errors
    return {
      results,
      meta_data: this.meta(started, {
        sources_searched: auth.allowed.map((resource) => resource.id),
        ...extra,
      }),
    }
  }

  private unknownUser(username: string, empty: Record<string, unknown>, started: number): Envelope {
    // Broken: a stranger gets an empty answer instead of a refusal.
    if (broken('rag-tools-v1.unauthorized'))
      return { results: empty, meta_data: this.meta(started) }
    const error: SourceError = {
      code: 'unauthorized_user',
      message: `Unknown user "${username}": not in this server's directory`,
    }
    return { results: { ...empty, error }, meta_data: this.meta(started) }
  }
}
