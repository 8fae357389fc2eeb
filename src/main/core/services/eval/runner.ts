import { randomBytes } from 'node:crypto'
import { setTimeout as sleepFor } from 'node:timers/promises'
import { ConsoleError, type ErrorInfo } from '#shared/errors'
import {
  hiddenFromProfile,
  type EvalHit,
  type EvalProviderResult,
  type EvalQuery,
  type EvalQueryResult,
  type EvalRun,
  type EvalRunInputs,
  type EvalRunSummary,
  type GoldenSet,
} from '#shared/model/evaluation'
import { dedupeKey } from '#shared/model/hit-identity'
import type { Selection, ServerSearchResult } from '#shared/model/operations'
import type { RateLimitInfo } from '#shared/model/server'
import type { Profile } from '#shared/model/user'
import type { EventBus } from '../../events'
import { CancellableRuns } from '../cancellable-runs'
import { planTargets, type PlanDeps } from '../plan'
import type { SearchRun } from '../search-service'
import type { SearchResult } from '#shared/model/operations'
import type { RunStore } from './run-store'

export const DEFAULT_EVAL_K = 10
export const DEFAULT_EVAL_CONCURRENCY = 4
/** Hits a run may keep in all (pairs × providers × k): bounds its file (~150 bytes a hit). */
export const MAX_RUN_HITS = 500_000
/** Waits for one rate-limited provider before its error is kept as the query's result. */
const MAX_RATE_WAITS = 10
const MAX_WAIT_MS = 65_000
const TITLE_LIMIT = 200
/** A running run's summary file is rewritten at most this often (for other processes). */
const PROGRESS_WRITE_MS = 200

export interface EvalRunnerDeps extends PlanDeps {
  search: { run(request: SearchRun): Promise<SearchResult> }
  /** The active profile (with any CLI override), and saved profiles by id (`not_found`). */
  activeProfile: () => Profile
  profile: (id: string) => Profile
  /** Learns a profile's sources (discovery), before a run that uses its remembered selection. */
  discover: (profile: Profile) => Promise<unknown>
  /** What a server last said about its rate limit (`X-RateLimit-*`). */
  rateLimit: (server: string) => RateLimitInfo | undefined
  events: EventBus
  runs: RunStore
  now?: () => number
  /** Waits `ms` unless the signal aborts first (tests pass a fake clock's). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

export interface EvalRunRequest {
  runId?: string | undefined
  set: GoldenSet
  selection?: Selection | undefined
  profiles?: string[] | undefined
  k?: number | undefined
  concurrency?: number | undefined
  queryIds?: string[] | undefined
}

interface Pair {
  query: EvalQuery
  profile: Profile
  selection: Selection
}

/**
 * Runs golden sets: every (query, profile) pair through the search service with bounded
 * concurrency, each provider's hits, latency and error kept; a provider that says it is rate
 * limited is waited for (its Retry-After, else its limit's reset) and asked again, so a run slows
 * down rather than fails. Progress goes out as `eval:progress`; the run is stored when it ends
 * (done, cancelled or failed) and announced as `eval:run-finished`.
 */
export class EvalRunner {
  private readonly running = new CancellableRuns(alreadyRunning)
  private readonly inFlight = new Set<Promise<EvalRun>>()
  /** The summaries of the runs in progress, updated as they go. */
  private readonly live = new Map<string, EvalRunSummary>()
  /** Every run this runner started (its summary file changes are its own). */
  private readonly started = new Set<string>()

  constructor(private readonly deps: EvalRunnerDeps) {}

  /**
   * Plans and starts a run; resolves at once with its summary and the promise of the whole run.
   * Planning problems (unknown profile or query, too large) fail here, before anything is sent.
   */
  async start(
    request: EvalRunRequest,
  ): Promise<{ summary: EvalRunSummary; done: Promise<EvalRun> }> {
    const id = request.runId ?? newRunId(this.now())
    if (this.running.has(id)) throw alreadyRunning(id)
    if (this.deps.runs.has(id)) {
      throw new ConsoleError({ code: 'conflict', message: `a run with id ${id} is stored already` })
    }
    const inputs: EvalRunInputs = {
      setId: request.set.id,
      setName: request.set.name,
      profiles: (request.profiles ?? [this.deps.activeProfile().id]).slice(),
      k: request.k ?? DEFAULT_EVAL_K,
      concurrency: request.concurrency ?? DEFAULT_EVAL_CONCURRENCY,
    }
    if (request.selection) inputs.selection = request.selection
    if (request.queryIds) inputs.queryIds = request.queryIds
    const pairs = await this.plan(request, inputs)
    const servers = [...new Set(pairs.flatMap((pair) => Object.keys(pair.selection)))]
    if (pairs.length * Math.max(1, servers.length) * inputs.k > MAX_RUN_HITS) {
      throw new ConsoleError({
        code: 'invalid_argument',
        message: `this run would keep up to ${pairs.length * servers.length * inputs.k} hits (${pairs.length} queries × ${servers.length} servers × k=${inputs.k}); the limit is ${MAX_RUN_HITS}: run fewer queries or servers, or a smaller k`,
      })
    }
    const summary: EvalRunSummary = {
      id,
      setId: inputs.setId,
      setName: inputs.setName,
      status: 'running',
      startedAt: new Date(this.now()).toISOString(),
      total: pairs.length,
      done: 0,
      failures: 0,
      servers,
      profiles: [...new Set(pairs.map((pair) => pair.profile.id))],
      k: inputs.k,
      pid: process.pid,
    }
    const queries = [...new Set(pairs.map((pair) => pair.query))]
    // Planning awaited discovery: another start under this id may have begun meanwhile.
    if (this.running.has(id)) throw alreadyRunning(id)
    this.live.set(id, summary)
    this.started.add(id)
    this.saveProgress(summary)
    this.deps.events.emit('eval:run-started', { run: { ...summary } })
    const done = this.running.run(id, (signal) =>
      this.execute({ version: 1, summary, inputs, queries, results: [] }, pairs, signal),
    )
    this.inFlight.add(done)
    void done
      .finally(() => {
        this.inFlight.delete(done)
        this.live.delete(id)
      })
      .catch(() => undefined)
    return { summary: { ...summary }, done }
  }

  /** Copies of the summaries of the runs in progress. */
  inProgress(): EvalRunSummary[] {
    return [...this.live.values()].map((summary) => ({ ...summary }))
  }

  /** Whether this runner started the run (in this process). */
  owns(runId: string): boolean {
    return this.started.has(runId)
  }

  cancel(runId: string): boolean {
    return this.running.cancel(runId)
  }

  /** Cancels every running run and waits until each is stored as cancelled. */
  async dispose(): Promise<void> {
    this.running.dispose()
    await Promise.allSettled([...this.inFlight])
  }

  private async plan(request: EvalRunRequest, inputs: EvalRunInputs): Promise<Pair[]> {
    const byId = new Map(request.set.queries.map((q) => [q.id, q]))
    const unknown = (request.queryIds ?? []).filter((id) => !byId.has(id))
    if (unknown.length > 0) {
      throw new ConsoleError({
        code: 'invalid_argument',
        message: `golden set ${request.set.id} has no queries ${unknown.join(', ')}`,
      })
    }
    const queries = request.queryIds
      ? request.queryIds.map((id) => byId.get(id)!)
      : request.set.queries
    const profiles = new Map<string, Profile>()
    const profileOf = (id: string, why: string): Profile => {
      const known = profiles.get(id)
      if (known) return known
      let profile: Profile
      try {
        profile =
          id === this.deps.activeProfile().id ? this.deps.activeProfile() : this.deps.profile(id)
      } catch {
        throw new ConsoleError({
          code: 'not_found',
          message: `${why} runs as profile "${id}", which is not saved here: add it (Profiles) or change the set`,
        })
      }
      profiles.set(id, profile)
      return profile
    }
    const defaults = new Map<string, Selection>()
    const selectionFor = (query: EvalQuery, profile: Profile): Selection => {
      if (query.sources) return restrict(query.sources, request.selection)
      if (request.selection) return request.selection
      let selection = defaults.get(profile.id)
      if (!selection) {
        // The profile's remembered selection, resolved once so a retry asks the same sources.
        selection = Object.fromEntries(
          planTargets(this.deps, profile).map((target) => [target.server, target.sources]),
        )
        defaults.set(profile.id, selection)
      }
      return selection
    }
    const planned = queries.flatMap((query) => {
      const ids = query.profileId ? [query.profileId] : inputs.profiles
      return ids.map((profileId) => {
        const why = query.profileId ? `query ${query.id}` : 'the run'
        return { query, profile: profileOf(profileId, why) }
      })
    })
    if (!request.selection) {
      const remembered = planned.filter(({ query }) => !query.sources).map((p) => p.profile)
      for (const profile of new Set(remembered)) await this.deps.discover(profile)
    }
    return planned.map((pair) => ({ ...pair, selection: selectionFor(pair.query, pair.profile) }))
  }

  private async execute(run: EvalRun, pairs: Pair[], signal: AbortSignal): Promise<EvalRun> {
    const results: (EvalQueryResult | undefined)[] = new Array(pairs.length)
    let next = 0
    let error: ErrorInfo | undefined
    let written = this.now()
    const worker = async (): Promise<void> => {
      while (!signal.aborted && next < pairs.length) {
        const index = next++
        const pair = pairs[index]!
        const result = await this.runPair(run.summary.id, index, pair, run.inputs.k, signal)
        if (signal.aborted) return
        results[index] = result
        run.summary.done++
        // A provider hidden from the profile was not asked: not a failed call.
        run.summary.failures += result.providers.filter(
          (p) => !p.ok && !hiddenFromProfile(p.error),
        ).length
        this.deps.events.emit('eval:progress', {
          runId: run.summary.id,
          done: run.summary.done,
          total: run.summary.total,
          failures: run.summary.failures,
          queryId: pair.query.id,
          profileId: pair.profile.id,
        })
        if (this.now() - written >= PROGRESS_WRITE_MS) {
          written = this.now()
          this.saveProgress(run.summary)
        }
      }
    }
    try {
      const workers = Math.min(run.inputs.concurrency, pairs.length)
      await Promise.all(Array.from({ length: workers }, worker))
    } catch (thrown) {
      if (!signal.aborted) {
        error =
          thrown instanceof ConsoleError
            ? thrown.toInfo()
            : { code: 'internal', message: `the run stopped: ${String(thrown)}` }
      }
    }
    run.results = results.filter((r): r is EvalQueryResult => r !== undefined)
    run.summary.status = error ? 'failed' : signal.aborted ? 'cancelled' : 'done'
    if (error) run.summary.error = error
    run.summary.finishedAt = new Date(this.now()).toISOString()
    delete run.summary.pid
    this.deps.runs.save(run)
    this.deps.events.emit('eval:run-finished', { run: { ...run.summary } })
    return run
  }

  /** One (query, profile): a search, then again for each provider that was rate limited. */
  private async runPair(
    runId: string,
    index: number,
    pair: Pair,
    k: number,
    signal: AbortSignal,
  ): Promise<EvalQueryResult> {
    const providers = new Map<string, EvalProviderResult>()
    let selection = pair.selection
    let elapsedMs = 0
    for (let attempt = 0; Object.keys(selection).length > 0; attempt++) {
      await this.waitForLimits(Object.keys(selection), signal)
      const result = await this.deps.search.run({
        searchId: `${runId}:${index}:${attempt}`,
        query: pair.query.query,
        ...(pair.query.phrases ? { phrases: pair.query.phrases } : {}),
        topK: k,
        selection,
        profile: pair.profile,
        quiet: true,
      })
      elapsedMs =
        attempt === 0
          ? result.elapsedMs
          : Math.max(elapsedMs, ...result.servers.map((s) => s.latencyMs))
      for (const server of result.servers) providers.set(server.server, compact(server, k))
      const limited = result.servers.filter((s) => !s.ok && s.error?.code === 'rate_limited')
      if (limited.length === 0 || signal.aborted || attempt === MAX_RATE_WAITS) break
      await this.sleep(this.waitMs(limited, attempt), signal)
      selection = Object.fromEntries(limited.map((s) => [s.server, selection[s.server] ?? []]))
    }
    return {
      queryId: pair.query.id,
      profileId: pair.profile.id,
      elapsedMs,
      providers: Object.keys(pair.selection).flatMap((server) => providers.get(server) ?? []),
    }
  }

  /** Before asking, waits out any server whose last reply said its limit is used up. */
  private async waitForLimits(servers: string[], signal: AbortSignal): Promise<void> {
    const now = this.now()
    const until = Math.max(0, ...servers.map((server) => resetAt(this.deps.rateLimit(server), now)))
    if (until > now) await this.sleep(Math.min(until - now, MAX_WAIT_MS), signal)
  }

  private waitMs(limited: ServerSearchResult[], attempt: number): number {
    const now = this.now()
    const waits = limited.map((result) => {
      const retryAfter = Number(result.error?.details?.retryAfter)
      if (Number.isFinite(retryAfter) && retryAfter > 0) return retryAfter * 1000
      const reset = resetAt(this.deps.rateLimit(result.server), now)
      return reset > now ? reset - now : 1000 * 2 ** attempt
    })
    return Math.min(MAX_WAIT_MS, Math.max(100, ...waits))
  }

  /**
   * Rewrites a running run's summary file, so another process on the data folder sees its
   * progress; a failed write only costs that view, never the run.
   */
  private saveProgress(summary: EvalRunSummary): void {
    try {
      this.deps.runs.saveProgress(summary)
    } catch {
      // the run goes on; its summary is written again when it is stored
    }
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (this.deps.sleep) return this.deps.sleep(ms, signal)
    return sleepFor(ms, undefined, { signal }).catch(() => undefined)
  }

  private now(): number {
    return (this.deps.now ?? Date.now)()
  }
}

const alreadyRunning = (id: string): ConsoleError =>
  new ConsoleError({
    code: 'conflict',
    message: `evaluation run ${id} is already running; cancel it or use a new id`,
  })

/** When a server's used-up limit resets (epoch ms); 0 when it is not used up. */
function resetAt(info: RateLimitInfo | undefined, now: number): number {
  if (!info || info.remaining !== 0 || info.reset === undefined) return 0
  // Servers send either an epoch time or seconds until the reset.
  const at = info.reset > 1e9 ? info.reset * 1000 : info.at + info.reset * 1000
  return at > now ? at : 0
}

/** A query's own sources, within the run's servers when the run names them. */
function restrict(sources: Selection, run: Selection | undefined): Selection {
  if (!run) return sources
  return Object.fromEntries(Object.entries(sources).filter(([server]) => server in run))
}

function compact(result: ServerSearchResult, k: number): EvalProviderResult {
  const provider: EvalProviderResult = {
    server: result.server,
    ok: result.ok,
    latencyMs: result.latencyMs,
    hits: result.hits.slice(0, k).map((hit) => {
      const kept: EvalHit = {
        docKey: dedupeKey(hit),
        id: hit.id,
        title: hit.title.slice(0, TITLE_LIMIT),
      }
      if (hit.sourceId !== undefined) kept.sourceId = hit.sourceId
      if (hit.score !== undefined && Number.isFinite(hit.score)) kept.score = hit.score
      if (hit.scoreOrder !== undefined) kept.scoreOrder = hit.scoreOrder
      return kept
    }),
  }
  if (result.error) provider.error = result.error
  return provider
}

/** A sortable, file-safe id: `20261125-171500-1a2b3c`. */
function newRunId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
  return `${stamp}-${randomBytes(3).toString('hex')}`
}
