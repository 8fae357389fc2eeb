import { z } from 'zod'
import type { AccessCheck, LinkVerdict } from '../model/rag'
import {
  FUSION_MODES,
  MAX_EXTRA_PHRASES,
  type AuditPage,
  type DiscoveryResult,
  type MergedHit,
  type SearchResult,
  type ServerAnswer,
  type ServerSearchResult,
} from '../model/operations'
import type { ServerSummary } from '../model/server'

const id = z.string().min(1).max(256)

/** Server id → source ids; an empty list means the server's own default sources. */
const selectionSchema = z.record(id, z.array(z.string().min(1).max(1024)).max(1000))

/** Sent exactly as typed (spec 000: phrase 0 is the unmodified input), so never trimmed. */
const querySchema = z
  .string()
  .max(4000)
  .refine((text) => text.trim() !== '', 'the query is empty')

/** Per-server time budget (connection + calls); default each server's `timeoutMs`. */
const budgetSchema = z.number().int().min(100).max(300_000)

const auditFilterSchema = z.object({
  limit: z.number().int().positive().max(100_000).optional(),
  server: z.string().optional(),
  user: z.string().optional(),
  operation: z.string().optional(),
  outcome: z.enum(['ok', 'error']).optional(),
  since: z.string().optional(),
  /** Only the lines of runs the console started by itself (true), or only the others (false). */
  automatic: z.boolean().optional(),
})

const urlSchema = z.string().min(1).max(8192)

const profileIdSchema = z.string().min(1).max(128)

/**
 * What to check: a hit as search returned it (`server`, `id`, `uri`), a citation of an answer
 * (`server`, `hitId`, `uri`), a server + segment id and/or a URL. Extra fields of a hit or
 * citation are ignored, so the renderer can pass them as they are.
 */
export const accessTargetSchema = z.union([
  z.object({ hit: z.object({ server: id, id: z.string().min(1), uri: urlSchema.optional() }) }),
  z.object({
    citation: z.object({
      server: id,
      hitId: z.string().min(1).optional(),
      uri: urlSchema.optional(),
    }),
  }),
  z
    .object({
      server: id.optional(),
      segmentId: z.string().min(1).max(1024).optional(),
      url: urlSchema.optional(),
    })
    .refine(
      (target) => target.url !== undefined || (target.server && target.segmentId),
      'give a url, or a server and a segmentId',
    ),
])

export type AccessTargetInput = z.output<typeof accessTargetSchema>

/** One check of the Access panel's history (kept in the data folder, newest first). */
export interface AccessHistoryEntry {
  id: number
  target: { server?: string; segmentId?: string; url?: string }
  check: AccessCheck
  /** The profile it was checked as; absent: the active one at the time. */
  profileId?: string
}

/** A server's part of a `streamed` search's reply: its hits went out as `search:progress`. */
export type StreamedPart = Pick<
  ServerSearchResult,
  'server' | 'ok' | 'status' | 'error' | 'latencyMs' | 'count'
> & { streamed: true }

/** `search:run`'s reply: each server's part in full, or a summary of one already streamed. */
export interface SearchReply extends Omit<SearchResult, 'servers' | 'hits'> {
  servers: (ServerSearchResult | StreamedPart)[]
  hits: ReplyHit[]
}

/**
 * A merged hit as a reply carries it. A streamed reply leaves `foundIn` out: every copy is in the
 * parts the progress events brought (`withPlaces` in shared/model/fusion.ts lists them), and with
 * many overlapping servers the list grows with them (100 hits found by 500 servers: 3.9 MB).
 */
export type ReplyHit = Omit<MergedHit, 'foundIn'> & Partial<Pick<MergedHit, 'foundIn'>>

/**
 * A hit's raw payload as its server sent it (secrets redacted), or `held: false` once main no
 * longer keeps it (it keeps those of its last searches, up to a size cap).
 */
export type RawPayload = { held: true; raw: unknown } | { held: false }

export const ragRequests = {
  /** Every configured server as the active profile sees it: config, status, dialect, secrets. */
  'servers:list': z.undefined(),
  /** Data sources per visible server for the active profile (all servers, or the listed ones). */
  'discovery:run': z
    .object({
      servers: z.array(id).max(500).optional(),
      /** Started by the console itself (page load, profile switch): marked so in the audit log. */
      automatic: z.boolean().optional(),
    })
    .optional(),
  /** Fan-out search; per-server results arrive as `search:progress` events before it resolves. */
  'search:run': z.object({
    searchId: z.string().min(1).max(128),
    query: querySchema,
    phrases: z.array(z.string().max(4000)).max(MAX_EXTRA_PHRASES).optional(),
    topK: z.number().int().min(1).max(100).optional(),
    fusion: z.enum(FUSION_MODES).optional(),
    selection: selectionSchema.optional(),
    filters: z.record(z.string(), z.unknown()).optional(),
    timeoutMs: budgetSchema.optional(),
    /**
     * The caller folds the `search:progress` events: the reply then carries a
     * {@link StreamedPart} (no hits) for every server part that went out as an event.
     */
    streamed: z.boolean().optional(),
  }),
  /**
   * A hit's raw server payload: search results cross IPC without it; main holds those of its
   * recent searches (see {@link RawPayload}).
   */
  'search:raw': z.object({
    searchId: z.string().min(1).max(128),
    server: id,
    sourceId: z.string().min(1).max(1024).optional(),
    hitId: z.string().min(1).max(4096),
  }),
  /** Stops a running search: its in-flight calls are aborted, it resolves with what arrived. */
  'search:cancel': z.object({ searchId: z.string().min(1).max(128) }),
  /** One answer per selected server: its own synthesis tool, else an extractive answer. */
  'synthesis:run': z.object({
    query: querySchema,
    topK: z.number().int().min(1).max(100).optional(),
    selection: selectionSchema.optional(),
    timeoutMs: budgetSchema.optional(),
  }),
  /**
   * Does this citation still open, for this user? As the profile `profileId` (default the active
   * one), without changing which profile is active. Cached 5 minutes.
   */
  'access:check': z.object({
    target: accessTargetSchema,
    refresh: z.boolean().optional(),
    profileId: profileIdSchema.optional(),
  }),
  /** Checks many at once with bounded concurrency; progress arrives as `access:progress`. */
  'access:check-all': z.object({
    batchId: z.string().min(1).max(128),
    targets: z.array(accessTargetSchema).min(1).max(1000),
    refresh: z.boolean().optional(),
    profileId: profileIdSchema.optional(),
  }),
  /** The Access panel's recent checks (`access:check`), newest first; kept across restarts. */
  'access:history': z.undefined(),
  /** Audit lines, newest first (default 1,000), and how many unreadable lines were skipped. */
  'audit:list': auditFilterSchema.optional(),
  /** The matching audit lines as a file's text (JSON lines or CSV), for saving. */
  'audit:export': z.object({
    format: z.enum(['jsonl', 'csv']),
    filter: auditFilterSchema.optional(),
  }),
}

export interface RagResults {
  'servers:list': ServerSummary[]
  'discovery:run': DiscoveryResult
  'search:run': SearchReply
  'search:raw': RawPayload
  'search:cancel': { cancelled: boolean }
  'synthesis:run': { query: string; elapsedMs: number; answers: ServerAnswer[] }
  'access:check': AccessCheck
  'access:check-all': {
    batchId: string
    checks: AccessCheck[]
    counts: Partial<Record<LinkVerdict, number>>
  }
  'access:history': AccessHistoryEntry[]
  'audit:list': AuditPage
  'audit:export': { fileName: string; mime: string; text: string; skipped: number }
}

export interface RagEvents {
  /** One server's part of a running search, as soon as it answers. */
  'search:progress': { searchId: string; result: ServerSearchResult }
  'access:progress': { batchId: string; done: number; total: number; check: AccessCheck }
  /** Data sources the active profile had selected that a server no longer reports. */
  'discovery:missing': { server: string; sources: string[] }
}
