import type { ErrorInfo } from '../errors'
import type { ActingUser } from './user'

/** A contract breach found in a server's reply; reported, never thrown. */
export interface Violation {
  /**
   * Stable id, e.g. `missing_field`, `wrong_type`, `too_many_segments`, `headline_too_long`; the
   * adapters' ids and their explanations are in `VIOLATION_RULES` (`./violations`).
   */
  rule: string
  /**
   * JSON path into the raw reply, e.g. `segments[3].raw_text`. Inside a text block that carries
   * JSON the path continues into the parsed value: `content[0].text[2].relevance`.
   */
  path: string
  message: string
  value?: unknown
}

export type AuthMode = 'username' | 'api_key' | 'bearer' | 'oauth' | 'capability' | 'none'

/** A data source a server exposes (runtime discovery merged with config hints). */
export interface Resource {
  server: string
  id: string
  name: string
  description?: string
  sourceType?: string
  authRequired: boolean
  authMode?: AuthMode
  groups: string[]
  scopes: string[]
  counts?: { docs?: number; chunks?: number }
  lastIndexed?: string
  defaultSelected: boolean
  /** Dialect-specific locator, e.g. a `rag://` URI. */
  uri?: string
  /** What discovery reported wrong with this source (e.g. its backend is offline). */
  error?: ErrorInfo
}

/** A payload a server attached for inspection (v2 `artifacts`: mime type + base64 body). */
export interface Artifact {
  name?: string
  mime: string
  b64: string
}

export type HitFlag = 'suspicious' | 'violations' | 'derived_title' | 'derived_summary'

/** Which way a score runs: a similarity (larger is better) or a distance (smaller is better). */
export const SCORE_ORDERS = ['higher-is-better', 'lower-is-better'] as const
export type ScoreOrder = (typeof SCORE_ORDERS)[number]

/** One retrieved passage, whatever the family that returned it. */
export interface Hit {
  server: string
  sourceId?: string
  id: string
  title: string
  snippet: string
  text?: string
  summary?: string
  score?: number
  /**
   * Which way `score` runs, when the server's mapping says so: `lower-is-better` for a
   * distance. Absent: larger is better.
   */
  scoreOrder?: ScoreOrder
  uri?: string
  fileName?: string
  fileType?: string
  timestamp?: string
  provenance?: unknown
  /**
   * Which of title/summary the console derived from the text (spec 000 fallback) because the
   * server sent none.
   */
  derived: { title: boolean; summary: boolean }
  flags: HitFlag[]
  /** The violations about this hit (they are also listed on the result that carries it). */
  violations: Violation[]
  /**
   * The hit exactly as the server sent it. Absent on hits sent to the renderer: main holds it,
   * and the Hit inspector asks for it (`search:raw`).
   */
  raw?: unknown
}

export interface Citation {
  /** 1-based number as shown in the answer text, e.g. [1]. */
  n: number
  server: string
  sourceId?: string
  hitId?: string
  title?: string
  uri?: string
  snippet?: string
}

export interface Answer {
  server: string
  /** `server`: the server's own synthesis tool; `client`: extractive, built by the console. */
  mode: 'server' | 'client'
  text: string
  citations: Citation[]
  /** The server's own confidence (0..1); a client answer has none. */
  confidence?: number
  /** Client answers: how many of the question's words its sentences contain. */
  coverage?: { matched: number; total: number }
  silence?: { reason: string }
  /** `suspicious`: the answer text reads like instructions to a model (set by the console). */
  flags?: Extract<HitFlag, 'suspicious'>[]
  limits?: { truncated?: boolean; reason?: string }
  /** Attachments the server sent with its answer (e.g. an HTML report). */
  artifacts?: Artifact[]
  violations: Violation[]
  raw?: unknown
}

/** What a server's `verify_document_access` said. */
export interface AccessResult {
  server: string
  segmentId: string
  /** null when the server has no verification tool. */
  hasAccess: boolean | null
  refreshedUrl?: string
  accessLevel?: string
  error?: string
  /** Whether the server was actually asked. */
  checked: boolean
  violations: Violation[]
}

export const LINK_VERDICTS = [
  'ok',
  /**
   * The link opens for anyone who holds it, while the server denies the user being checked:
   * the document leaks to whoever has the link.
   */
  'leak',
  'expired',
  'forbidden',
  'not_found',
  'login_wall',
  'rate_limited',
  'server_error',
  'unreachable',
  /** The console's link policy refused the address (nothing was sent to it). */
  'blocked',
  /** The link is not a web link (a file or UNC path, a malformed URL). */
  'invalid_url',
  /** There was no link at all to check. */
  'no_link',
] as const
export type LinkVerdict = (typeof LINK_VERDICTS)[number]
/** What one HTTP check of a link found (a leak takes the server's answer too). */
export type LinkClass = Exclude<LinkVerdict, 'leak'>

export interface LinkHop {
  url: string
  status: number
  latencyMs: number
}

export interface LinkCheck {
  url: string
  status?: number
  ok: boolean
  classification: LinkClass
  latencyMs: number
  redirects: LinkHop[]
  contentType?: string
  error?: string
}

/** Full answer to "does this citation still open, for this user?" */
export interface AccessCheck {
  server?: string
  segmentId?: string
  url?: string
  user: ActingUser
  access?: AccessResult
  /** The HTTP check of `url`: the link the user clicked, else the one the server issued. */
  link?: LinkCheck
  /** The HTTP check of a fresh link the server issued in place of the clicked one. */
  freshLink?: LinkCheck
  /** The server's access answer and the link's HTTP result disagree (both are shown). */
  conflict?: boolean
  verdict: LinkVerdict
  /** Plain words, e.g. "the signed link expired; the server issued a fresh one that works". */
  explanation: string
  checkedAt: number
  cached: boolean
  error?: ErrorInfo
}
