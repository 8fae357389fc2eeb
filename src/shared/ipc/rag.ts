import { z } from 'zod'
import type { AccessCheck, LinkVerdict } from '../model/rag'
import type {
  AuditEntry,
  DiscoveryResult,
  SearchResult,
  ServerAnswer,
  ServerSearchResult,
} from '../model/operations'
import type { ServerSummary } from '../model/server'

const selectionSchema = z.record(z.string(), z.array(z.string()))

const auditFilterSchema = z.object({
  limit: z.number().int().positive().max(100_000).optional(),
  server: z.string().optional(),
  user: z.string().optional(),
  operation: z.string().optional(),
  outcome: z.enum(['ok', 'error']).optional(),
  since: z.string().optional(),
})

/** What to check: a hit or citation (server + segment, with its URL), a segment alone, or a URL. */
const accessTargetSchema = z.object({
  server: z.string().optional(),
  segmentId: z.string().optional(),
  url: z.string().max(8192).optional(),
})

export const ragRequests = {
  /** Every configured server as the active profile sees it: config, status, dialect, secrets. */
  'servers:list': z.undefined(),
  /** Data sources per visible server for the active profile (all servers, or the listed ones). */
  'discovery:run': z.object({ servers: z.array(z.string()).optional() }).optional(),
  /** Fan-out search; per-server results arrive as `search:progress` events before it resolves. */
  'search:run': z.object({
    searchId: z.string().min(1).max(128),
    query: z.string().trim().min(1).max(4000),
    phrases: z.array(z.string().trim().min(1).max(4000)).max(4).optional(),
    topK: z.number().int().min(1).max(100).optional(),
    fusion: z.enum(['rrf', 'score', 'minmax']).optional(),
    selection: selectionSchema.optional(),
    filters: z.record(z.string(), z.unknown()).optional(),
  }),
  'search:cancel': z.object({ searchId: z.string() }),
  /** One answer per selected server: its own synthesis tool, else an extractive answer. */
  'synthesis:run': z.object({
    query: z.string().trim().min(1).max(4000),
    topK: z.number().int().min(1).max(100).optional(),
    selection: selectionSchema.optional(),
  }),
  /** Does this citation still open, for the active profile's user? Cached 5 minutes. */
  'access:check': z.object({ target: accessTargetSchema, refresh: z.boolean().optional() }),
  /** Checks many at once with bounded concurrency; progress arrives as `access:progress`. */
  'access:check-all': z.object({
    batchId: z.string().min(1).max(128),
    targets: z.array(accessTargetSchema).min(1).max(1000),
    refresh: z.boolean().optional(),
  }),
  'audit:list': auditFilterSchema.optional(),
  'audit:export': z.object({
    format: z.enum(['jsonl', 'csv']),
    filter: auditFilterSchema.optional(),
  }),
}

export interface RagResults {
  'servers:list': ServerSummary[]
  'discovery:run': DiscoveryResult
  'search:run': SearchResult
  'search:cancel': { cancelled: boolean }
  'synthesis:run': { query: string; elapsedMs: number; answers: ServerAnswer[] }
  'access:check': AccessCheck
  'access:check-all': {
    batchId: string
    checks: AccessCheck[]
    counts: Partial<Record<LinkVerdict, number>>
  }
  'audit:list': AuditEntry[]
  'audit:export': { fileName: string; mime: string; text: string }
}

export interface RagEvents {
  /** One server's part of a running search, as soon as it answers. */
  'search:progress': { searchId: string; result: ServerSearchResult }
  'access:progress': { batchId: string; done: number; total: number; check: AccessCheck }
  /** Data sources the active profile had selected that a server no longer reports. */
  'discovery:missing': { server: string; sources: string[] }
}
