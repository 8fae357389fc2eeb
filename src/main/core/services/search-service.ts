import { ConsoleError, type ErrorInfo } from '#shared/errors'
import type { SearchReply } from '#shared/ipc/rag'
import type {
  FusionMode,
  SearchRequest,
  SearchResult,
  ServerSearchResult,
} from '#shared/model/operations'
import type { Artifact, Hit, Violation } from '#shared/model/rag'
import type { ServerState } from '#shared/model/server'
import type { Profile } from '#shared/model/user'
import type { EventBus } from '../events'
import { dedupeKey, mergeResults } from '#shared/model/fusion'
import { flagSuspicious } from './hit-flags'
import { planTargets, type PlanDeps, type Target } from './plan'
import type { ServerCalls, ServerOutcome } from './server-calls'
import { actingUser } from './targets'
import type { ActiveProfile } from './types'
import { CancellableRuns } from './cancellable-runs'
import type { RawPayloads } from './raw-payloads'

/** Hits per server and in the merged list when the request names no `topK`. */
export const DEFAULT_TOP_K = 10
/** Phrases besides the query (spec 000: 1–5 phrases, the first the exact query). */
export const MAX_EXTRA_PHRASES = 4

export interface SearchServiceDeps extends PlanDeps {
  calls: ServerCalls
  profile: ActiveProfile
  events: EventBus
  /** A session-only capability token for a source (`authMode: capability`), if one was given. */
  capabilityToken?: (server: string, sourceId: string) => string | undefined
  /** Where the raw payloads of a `holdRaw` search stay. */
  rawPayloads?: RawPayloads
  now?: () => number
}

/** A search as the service takes it: the shared request plus a per-server time budget. */
export type SearchRun = SearchRequest & {
  /** Per-server budget (connect + calls); default each server's `timeoutMs`. */
  timeoutMs?: number
  /** Who it runs as; default the active profile (an evaluation runs as each of its profiles). */
  profile?: Profile
  /** No `search:progress` events (an evaluation reports its own progress, per query). */
  quiet?: boolean
  /**
   * Hits leave (in events and in the result) without their raw payloads, which stay in
   * `rawPayloads` for whoever asks (the renderer's Hit inspector).
   */
  holdRaw?: boolean
}

interface ServerHits {
  hits: Hit[]
  violations: Violation[]
  sourceErrors: ServerSearchResult['sourceErrors']
  artifacts?: Artifact[]
}

/**
 * The extra phrases to send: trimmed, non-blank, distinct and different from the query, at most
 * {@link MAX_EXTRA_PHRASES}. The query itself is sent exactly as typed, as phrase 0.
 */
export function extraPhrases(query: string, phrases: string[] = []): string[] {
  const out: string[] = []
  for (const phrase of phrases) {
    const text = phrase.trim()
    if (text === '' || text === query.trim() || out.includes(text)) continue
    out.push(text)
    if (out.length === MAX_EXTRA_PHRASES) break
  }
  return out
}

/**
 * Fan-out search as the active profile: every selected server in parallel, each within its
 * time budget; each server's part is emitted as `search:progress` the moment it settles; the
 * merged list (duplicates collapsed, fused by RRF or score) comes with the per-server results,
 * errors beside them. {@link cancel} stops a running search: its in-flight calls are aborted and
 * it resolves with what arrived, `cancelled: true`.
 */
export class SearchService {
  private readonly running = new CancellableRuns(
    (id) =>
      new ConsoleError({
        code: 'conflict',
        message: `search ${id} is already running; cancel it or use a new id`,
      }),
  )

  constructor(private readonly deps: SearchServiceDeps) {}

  run(request: SearchRun): Promise<SearchResult> {
    return this.running.run(request.searchId, (signal) =>
      this.deps.calls.operation('search', () => this.execute(request, signal)),
    )
  }

  /** Aborts a running search; false when no search has that id (it finished, or never ran). */
  cancel(searchId: string): boolean {
    return this.running.cancel(searchId)
  }

  /** Cancels every running search. */
  dispose(): void {
    this.running.dispose()
  }

  private async execute(request: SearchRun, signal: AbortSignal): Promise<SearchResult> {
    const now = this.deps.now ?? Date.now
    const started = now()
    const profile = request.profile ?? this.deps.profile()
    const user = actingUser(profile)
    const topK = request.topK ?? DEFAULT_TOP_K
    const fusion: FusionMode = request.fusion ?? 'rrf'
    const phrases = extraPhrases(request.query, request.phrases)
    const targets = planTargets(this.deps, profile, request.selection)
    const raw = request.holdRaw ? this.deps.rawPayloads : undefined
    raw?.begin(request.searchId)
    const emit = (result: ServerSearchResult): ServerSearchResult => {
      if (raw) result.hits = raw.hold(request.searchId, result.hits)
      if (!request.quiet) {
        this.deps.events.emit('search:progress', { searchId: request.searchId, result })
      }
      return result
    }
    const search = async (target: Target): Promise<ServerSearchResult | undefined> => {
      if (!target.config || target.problem) {
        return emit(refused(target, this.deps.calls.state(target.config)))
      }
      const config = target.config
      const outcome = await this.deps.calls.run(
        config,
        {
          user,
          operation: 'search',
          sources: target.sources,
          budgetMs: request.timeoutMs ?? config.timeoutMs,
          signal,
        },
        async ({ session, adapter, options }) => {
          const tokens = this.tokens(target)
          const output = await adapter.search(
            session,
            {
              query: request.query,
              phrases,
              topK,
              sources: target.sources,
              ...(request.filters ? { filters: request.filters } : {}),
              ...(tokens ? { capabilityTokens: tokens } : {}),
            },
            options,
          )
          const hits = output.hits.slice(0, topK)
          flagSuspicious(hits)
          // Each hit's identity now, while other servers are still busy: not all at once in
          // the merge that the last reply waits for.
          for (const hit of hits) dedupeKey(hit)
          return {
            value: {
              hits,
              violations: output.violations,
              sourceErrors: output.sourceErrors,
              ...(output.artifacts?.length ? { artifacts: output.artifacts } : {}),
            },
            resultCount: hits.length,
            sourceErrors: output.sourceErrors,
          }
        },
      )
      // Planned by default before it connected, it turned out to be no search source (no
      // family, no mapping): left out, as it would have been had it been known.
      if (!request.selection && !outcome.ok && notSearchable(outcome.error)) return undefined
      return emit(toResult(target, outcome))
    }
    // The slowest servers' calls leave first: the faster ones' replies are read while waiting.
    // Each call gets the event loop until its request is out: started all at once, the 100th
    // call's first step runs before the first call's last, and no request leaves early.
    const calls = new Map<Target, Promise<ServerSearchResult | undefined>>()
    for (const target of this.slowestFirst(targets)) {
      if (calls.size > 0) await requestOut()
      calls.set(target, search(target))
    }
    const servers = (await Promise.all(targets.map((target) => calls.get(target)!))).filter(
      (result): result is ServerSearchResult => result !== undefined,
    )
    const merged = mergeResults(servers, fusion, topK)
    return {
      searchId: request.searchId,
      query: request.query,
      phrases: [request.query, ...phrases],
      user,
      fusion,
      elapsedMs: now() - started,
      cancelled: signal.aborted,
      servers,
      hits: merged,
    }
  }

  /** Unknown latency counts as slowest (a server not asked yet may well be). */
  private slowestFirst(targets: Target[]): Target[] {
    const latency = new Map(
      targets.map((target) => [
        target,
        this.deps.calls.lastLatency(target.server, 'search') ?? Infinity,
      ]),
    )
    // Not a subtraction: Infinity − Infinity is NaN. Ties keep registry order (stable sort).
    return [...targets].sort(
      (a, b) =>
        Number(latency.get(b)! > latency.get(a)!) - Number(latency.get(b)! < latency.get(a)!),
    )
  }

  private tokens(target: Target): Record<string, string> | undefined {
    const lookup = this.deps.capabilityToken
    if (!lookup) return undefined
    const tokens: Record<string, string> = {}
    for (const sourceId of target.sources) {
      if (target.authModes[sourceId] !== 'capability') continue
      const token = lookup(target.server, sourceId)
      if (token) tokens[sourceId] = token
    }
    return Object.keys(tokens).length > 0 ? tokens : undefined
  }
}

/**
 * A search's reply for a caller that folded its `search:progress` events: each server's part
 * becomes a summary without hits. Every part went out as an event (a search that is not
 * `quiet` emits each the moment it settles), so nothing is lost. The merged list stays: at most
 * `topK` hits, in main's fusion, without `foundIn`: the copies it lists are in those parts.
 */
export function streamedReply(result: SearchResult): SearchReply {
  return {
    ...result,
    hits: result.hits.map(({ foundIn: _foundIn, ...hit }) => hit),
    servers: result.servers.map(({ server, ok, status, error, latencyMs, count }) => ({
      server,
      ok,
      status,
      ...(error ? { error } : {}),
      latencyMs,
      count,
      streamed: true,
    })),
  }
}

/**
 * Two turns of the event loop: one for a call just started to reach its transport, one for
 * undici, which writes a request on an idle keep-alive socket only in the next check phase.
 */
function requestOut(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)))
}

function refused(target: Target, status: ServerState): ServerSearchResult {
  return {
    server: target.server,
    ok: false,
    status,
    error: target.problem!,
    latencyMs: 0,
    count: 0,
    hits: [],
    violations: [],
    sourceErrors: target.dropped,
  }
}

function toResult(target: Target, outcome: ServerOutcome<ServerHits>): ServerSearchResult {
  const base = {
    server: target.server,
    status: outcome.status,
    latencyMs: outcome.latencyMs,
  }
  if (!outcome.ok) {
    return {
      ...base,
      ok: false,
      error: outcome.error,
      count: 0,
      hits: [],
      violations: [],
      sourceErrors: target.dropped,
    }
  }
  const { hits, violations, sourceErrors, artifacts } = outcome.value
  return {
    ...base,
    ok: true,
    count: hits.length,
    hits,
    violations,
    sourceErrors: [...target.dropped, ...sourceErrors],
    ...(artifacts ? { artifacts } : {}),
  }
}

/** The console's own "no family fits and nothing is mapped" (`dialectOf`), not a server's error. */
function notSearchable(error: ErrorInfo): boolean {
  return error.code === 'unsupported' && error.origin === 'local'
}
