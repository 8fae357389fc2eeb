import type { ConsoleError, ErrorInfo } from '#shared/errors'
import type { Answer, AccessResult, Artifact, Hit, Resource, Violation } from '#shared/model/rag'
import type { DialectId, ToolInfo } from '#shared/model/server'
import type { CallOptions, ServerSession } from '../pool/types'

export interface DetectResult {
  matches: boolean
  /** Why it matches or not, in words for the UI ("has rag_search"). */
  reason: string
}

export interface DialectCapabilities {
  discover: boolean
  search: boolean
  synthesize: boolean
  verify: boolean
  /** Can fetch one document or source in full ({@link DialectAdapter.read}). */
  read: boolean
}

export interface SearchInput {
  /** The user's exact query; always sent as phrase 0 where the family takes phrases. */
  query: string
  /** Up to 4 extra phrases. */
  phrases: string[]
  topK: number
  /** Selected source ids; empty means the server's own default. */
  sources: string[]
  filters?: Record<string, unknown>
  /** Session-only capability tokens by source id. */
  capabilityTokens?: Record<string, string>
}

/**
 * Parsed reply plus everything found wrong with it; adapters never throw on bad replies (they
 * throw only when the call itself failed: a `ConsoleError` from the pool, an `isError`
 * result, or a reply that is nothing but an error).
 */
export interface SearchOutput {
  hits: Hit[]
  /** Every violation in the reply, including those also listed on single hits. */
  violations: Violation[]
  /** Errors about single sources inside an otherwise usable reply. */
  sourceErrors: { sourceId: string; error: ErrorInfo }[]
  /** The raw reply; an array of raw replies when the adapter made one call per source. */
  raw: unknown
  /** Artifacts (mime + base64) for the inspector. */
  artifacts?: Artifact[]
}

export interface DiscoverOutput {
  resources: Resource[]
  violations: Violation[]
  raw: unknown
}

/** What an adapter learnt about the server beyond `initialize` (vtex: its `handshake`). */
export interface DescribeOutput {
  serverInfo: { name?: string; version?: string; handshake?: unknown }
  violations: Violation[]
}

export interface SynthesisInput {
  query: string
  topK: number
  sources: string[]
}

/**
 * One RAG server family. Adding a dialect = one file implementing this, one entry in the
 * registry array, its fixtures, and its contract in docs/dialects.md (which also says which
 * published specification the "spec 000"…"spec 004" of comments are).
 */
export interface DialectAdapter {
  id: DialectId
  /**
   * The family's spec defines the acting user's HTTP headers (`x-user-id`, `x-session-tags`,
   * `x-human-uid`): only such servers get them unless their entry says otherwise.
   */
  identityHeaders?: true
  /** Pure: does this tool list look like this family? */
  detect(tools: ToolInfo[]): DetectResult
  capabilities(tools: ToolInfo[]): DialectCapabilities
  discover(session: ServerSession, options: CallOptions): Promise<DiscoverOutput>
  search(session: ServerSession, input: SearchInput, options: CallOptions): Promise<SearchOutput>
  synthesize?(session: ServerSession, input: SynthesisInput, options: CallOptions): Promise<Answer>
  verifyAccess?(
    session: ServerSession,
    segmentId: string,
    options: CallOptions,
  ): Promise<AccessResult>
  /**
   * Fetches one document or data source in full, as hits: ragbox `get_document` (with content),
   * vtex `resources/read` of a `rag://` source.
   */
  read?(session: ServerSession, ref: string, options: CallOptions): Promise<SearchOutput>
  /** Extra server information for the Servers panel (vtex: the non-standard `handshake`). */
  describe?(session: ServerSession, options: CallOptions): Promise<DescribeOutput>
  /**
   * Reclassifies a failure of any call to this family's server by its own JSON-RPC codes
   * (RAGbox: -32000 = unauthorized); calls made by hand pass it as the pool's `judgeError`.
   */
  judgeError?(error: ConsoleError, server: string): ConsoleError
}
