import { canRead, directoryGroups } from '../access'
import { getCorpus } from '../data/corpus'
import type { Doc } from '../data/types'
import { EXPIRED_LEGAL_CAPABILITY_TOKEN, LEGAL_CAPABILITY_TOKEN } from '../keys'
import { citationUrl, type LinkContext } from '../links'
import { ChunkIndex, type ChunkHit } from '../search/index'
import { bestSentence, queryTerms, truncate } from '../search/text'
import { reportHtml } from './report'
import { RESOURCES, resourceVisible, type ResourceDef } from './resources'

/** Error codes of spec 002, reported in `results.error`. */
export type ErrorCode =
  | 'unauthorized_user'
  | 'unauthorized_source'
  | 'rate_limited'
  | 'invalid_source'
  | 'backend_unavailable'
  | 'token_expired'

export interface SourceError {
  code: ErrorCode
  message: string
  source?: string
}

/** The v2 envelope every tool returns. */
export interface Envelope {
  results: Record<string, unknown>
  meta_data: Record<string, unknown>
  artifacts?: Array<{ name: string; mime: string; b64: string }>
}

export interface RagToolsOptions {
  /** Instance name reported as `meta_data.provider`. */
  name: string
  /** Resource ids this instance serves. */
  resources: string[]
  docHost: string
  ttlSeconds: number
  secret: string
}

export interface SearchArgs {
  username: string
  query: string
  sources?: string[]
  top_k?: number
  filters?: { date_from?: string; date_to?: string; tags?: string[]; owners?: string[] }
  ranking?: { rerank?: boolean; model?: string }
  capability_token?: string
}

export interface SynthesisArgs extends Omit<SearchArgs, 'filters' | 'ranking'> {
  synthesis_params?: { model?: string; style?: string; max_chars?: number }
  provided_context?: { hits?: unknown[] }
}

interface Authorized {
  groups: string[]
  allowed: ResourceDef[]
  errors: SourceError[]
}

const CONTRACT = 'rag-tools-v1'

/** Joins one sentence per passage with [n] markers; a sentence seen before only adds its marker. */
function citeSentences(sentences: string[]): string {
  const parts: Array<{ sentence: string; marks: number[] }> = []
  sentences.forEach((sentence, i) => {
    const seen = parts.find((part) => part.sentence === sentence)
    if (seen) seen.marks.push(i + 1)
    else parts.push({ sentence, marks: [i + 1] })
  })
  return parts
    .map((part) => `${part.sentence} ${part.marks.map((n) => `[${n}]`).join('')}`)
    .join(' ')
}

function matchesFilters(doc: Doc, filters: SearchArgs['filters']): boolean {
  if (!filters) return true
  if (filters.date_from && doc.updated < filters.date_from) return false
  if (filters.date_to && doc.updated.slice(0, 10) > filters.date_to) return false
  if (filters.tags?.length && !filters.tags.some((tag) => doc.tags.includes(tag.toLowerCase())))
    return false
  if (filters.owners?.length) {
    const owners = filters.owners.map((owner) => owner.toLowerCase())
    if (!owners.includes(doc.owner.toLowerCase()) && !owners.includes(doc.author.toLowerCase()))
      return false
  }
  return true
}

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
    filters?: { search?: string; page?: number; page_size?: number }
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
    return {
      results: { resources, paging: { page, page_size: pageSize, total: visible.length } },
      meta_data: this.meta(started),
    }
  }

  /** `rag_get_raw_results`: hits from the allowed sources, errors for the others. */
  raw(args: SearchArgs): Envelope {
    const started = performance.now()
    const auth = this.authorize(args)
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
    const auth = this.authorize(args)
    if (!auth) return this.unknownUser(args.username, { answer: '', citations: [] }, started)
    const style = args.synthesis_params?.style ?? 'short'
    const topK = args.top_k ?? (style === 'short' ? 3 : 5)
    const terms = queryTerms(args.query)
    const provided = args.provided_context?.hits
    const passages = provided?.length
      ? this.providedPassages(provided)
      : this.search(args, auth, topK, true).hits.map((hit) => ({
          title: hit.doc.title || hit.doc.fileName,
          text: hit.chunk.text,
          uri: citationUrl(hit.doc, this.links(args.username)),
          resourceId: hit.doc.source,
        }))
    const used = passages.slice(0, topK)
    const sentences = used.map(
      (passage, i) => `${bestSentence(passage.text, terms, 300)} [${i + 1}]`,
    )
    let answer = sentences.length
      ? sentences.join(' ')
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

  /** Splits the requested sources into allowed ones and per-source errors; undefined = unknown user. */
  private authorize(
    args: Pick<SearchArgs, 'username' | 'sources' | 'capability_token'>,
  ): Authorized | undefined {
    const groups = directoryGroups(args.username)
    if (!groups) return undefined
    const requested = args.sources?.length
      ? args.sources
      : this.resources
          .filter((resource) => resourceVisible(resource, groups))
          .map((resource) => resource.id)
    const allowed: ResourceDef[] = []
    const errors: SourceError[] = []
    for (const id of requested) {
      const resource = this.resources.find((candidate) => candidate.id === id)
      if (!resource) {
        errors.push({
          code: 'invalid_source',
          source: id,
          message: `No source "${id}" on this server; run rag_discover_resources for the valid ids`,
        })
      } else if (!resourceVisible(resource, groups)) {
        errors.push({
          code: 'unauthorized_source',
          source: id,
          message: `${args.username} may not search "${id}": it is restricted to ${resource.groups.join(', ')}`,
        })
      } else if (resource.offline) {
        errors.push({
          code: 'backend_unavailable',
          source: id,
          message: `"${id}" is archived; its search backend is offline`,
        })
      } else if (
        resource.authMode === 'capability' &&
        args.capability_token !== LEGAL_CAPABILITY_TOKEN
      ) {
        errors.push(this.capabilityError(id, args.capability_token))
      } else {
        allowed.push(resource)
      }
    }
    return { groups, allowed, errors }
  }

  private capabilityError(source: string, token: string | undefined): SourceError {
    if (!token) {
      return {
        code: 'unauthorized_source',
        source,
        message: `"${source}" needs a capability_token argument`,
      }
    }
    if (token === EXPIRED_LEGAL_CAPABILITY_TOKEN) {
      return {
        code: 'token_expired',
        source,
        message: `The capability_token for "${source}" has expired; request a new one`,
      }
    }
    return {
      code: 'unauthorized_source',
      source,
      message: `The capability_token is not valid for "${source}"`,
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

  private providedPassages(
    hits: unknown[],
  ): Array<{ title: string; text: string; uri?: string; resourceId?: string }> {
    return hits.flatMap((raw) => {
      if (typeof raw !== 'object' || raw === null) return []
      const hit = raw as Record<string, unknown>
      const text = [hit.chunk, hit.snippet, hit.text].find((value) => typeof value === 'string') as
        string | undefined
      if (!text) return []
      return [
        {
          title: typeof hit.title === 'string' ? hit.title : '',
          text,
          uri: typeof hit.uri === 'string' ? hit.uri : undefined,
          resourceId: typeof hit.resourceId === 'string' ? hit.resourceId : undefined,
        },
      ]
    })
  }

  private withErrors(
    results: Record<string, unknown>,
    auth: Authorized,
    started: number,
    extra: Record<string, unknown> = {},
  ): Envelope {
    const [first] = auth.errors
    if (first) results.error = first
    return {
      results,
      meta_data: this.meta(started, {
        sources_searched: auth.allowed.map((resource) => resource.id),
        ...(auth.errors.length ? { source_errors: auth.errors } : {}),
        ...extra,
      }),
    }
  }

  private unknownUser(username: string, empty: Record<string, unknown>, started: number): Envelope {
    const error: SourceError = {
      code: 'unauthorized_user',
      message: `Unknown user "${username}": not in this server's directory`,
    }
    return { results: { ...empty, error }, meta_data: this.meta(started) }
  }
}
