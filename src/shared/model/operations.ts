import type { ErrorInfo } from '../errors'
import type { Answer, Artifact, Hit, LinkVerdict, Resource, Violation } from './rag'
import type { ActingUser } from './user'
import type { ServerState } from './server'

/** Sources picked for an operation: server id → source ids (empty array: the server's default). */
export type Selection = Record<string, string[]>

export const FUSION_MODES = ['rrf', 'score', 'minmax'] as const

export type FusionMode = (typeof FUSION_MODES)[number]

/** Extra phrases a search takes besides its query (rag-search, spec 000, sends five in all). */
export const MAX_EXTRA_PHRASES = 4

export interface SearchRequest {
  /** Client-chosen id so progress events and cancellation can refer to the search. */
  searchId: string
  query: string
  /** Up to {@link MAX_EXTRA_PHRASES}; phrase 0 sent to servers is always `query` itself. */
  phrases?: string[]
  topK?: number
  fusion?: FusionMode
  /** Omitted: every visible server with its remembered selection. */
  selection?: Selection
  filters?: Record<string, unknown>
}

/** One server's part of a search; sent as a progress event as soon as that server answers. */
export interface ServerSearchResult {
  server: string
  ok: boolean
  status: ServerState
  error?: ErrorInfo
  latencyMs: number
  count: number
  hits: Hit[]
  violations: Violation[]
  /** Per-source errors reported inside an otherwise successful reply (e.g. unauthorized_source). */
  sourceErrors: { sourceId: string; error: ErrorInfo }[]
  /** Attachments the server sent with its reply (mime type + base64), for inspection. */
  artifacts?: Artifact[]
}

export interface MergedHit extends Hit {
  rank: number
  fusedScore: number
  /**
   * Every server/source that returned this hit (overlap across providers): the passage it
   * returned (`hitId`) and whether that passage was flagged suspicious. The merged hit is
   * suspicious when any of them is.
   */
  foundIn: {
    server: string
    sourceId?: string
    hitId: string
    rank: number
    score?: number
    suspicious?: true
  }[]
}

export interface SearchResult {
  searchId: string
  query: string
  phrases: string[]
  user: ActingUser
  fusion: FusionMode
  elapsedMs: number
  cancelled: boolean
  servers: ServerSearchResult[]
  hits: MergedHit[]
}

export interface ServerDiscovery {
  server: string
  ok: boolean
  error?: ErrorInfo
  latencyMs: number
  sources: (Resource & { selected: boolean; visible: boolean })[]
  /** Sources that were selected before but the server no longer reports. */
  missing: string[]
  /** When the server was asked for these sources (epoch ms); absent after a failure. */
  askedAt?: number
  /**
   * An automatic discovery answered from the last one (see `askedAt`) instead of asking the
   * server again: the same identity, connection and registry entry, within the cache time.
   */
  cached?: true
}

export interface DiscoveryResult {
  user: ActingUser
  servers: ServerDiscovery[]
}

export interface SynthesisRequest {
  query: string
  topK?: number
  selection?: Selection
}

export interface ServerAnswer {
  server: string
  ok: boolean
  error?: ErrorInfo
  latencyMs: number
  answer?: Answer
}

export interface AuditEntry {
  at: string
  user: string
  server: string
  operation: string
  tool?: string
  sources?: string[]
  outcome: 'ok' | 'error'
  errorCode?: string
  latencyMs: number
  resultCount?: number | undefined
  /** Operation `access`: the citation check's verdict. */
  verdict?: LinkVerdict
  /** The console ran it by itself (a page load, a profile switch), not because someone asked. */
  automatic?: true
  /**
   * A negative probe (Doctor) got the error it asked for: this code. Its `outcome` is `ok`: the
   * server answered as it should.
   */
  expectedError?: string
}

/** Audit lines read from the log, and how many unreadable lines (torn, hand-edited) were skipped. */
export interface AuditPage {
  entries: AuditEntry[]
  skipped: number
}
