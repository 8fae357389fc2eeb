import type { ReplyHit, SearchReply, StreamedPart } from '#shared/ipc/rag'
import { mergeResults, withPlaces } from '#shared/model/fusion'
import type {
  FusionMode,
  MergedHit,
  SearchResult,
  ServerSearchResult,
} from '#shared/model/operations'

/** A finished search as the panel holds it: every part whole, the merged list as main sent it. */
export type RunResult = Omit<SearchResult, 'hits'> & { hits: ReplyHit[] }

/** What the user asked for, as sent to `search:run`. */
export interface SearchDraft {
  query: string
  phrases: string[]
  topK: number
  fusion: FusionMode
}

/** A search as the panel shows it: per-server parts arrive before the merged result. */
export interface SearchRun {
  searchId: string
  draft: SearchDraft
  /** Servers expected to answer (from the sources summary), for pending waterfall rows. */
  expected: string[]
  startedAt: number
  phase: 'running' | 'done' | 'failed'
  /** Per-server results in the order they arrived. */
  servers: ServerSearchResult[]
  result?: RunResult
  /** Why the whole search failed (not one server: those are in `servers`). */
  error?: string
  /** The user pressed Cancel; the run resolves with what arrived. */
  cancelling: boolean
  /** Servers the reply summed up whose progress event has not come yet (it fills them in). */
  awaiting?: string[]
}

export type SearchRunAction =
  | { type: 'started'; searchId: string; draft: SearchDraft; expected: string[]; at: number }
  | { type: 'progress'; searchId: string; result: ServerSearchResult }
  | { type: 'finished'; result: SearchReply }
  | { type: 'failed'; searchId: string; message: string }
  | { type: 'cancelRequested'; searchId: string }

/**
 * Folds the events of searches into the one the panel shows. Anything about another search id
 * (an older run still settling) is ignored; a server answering twice keeps its latest part. The
 * reply sums up the parts that came as progress events: their hits are taken from those.
 */
export function searchRunReducer(run: SearchRun | null, action: SearchRunAction): SearchRun | null {
  if (action.type === 'started') {
    return {
      searchId: action.searchId,
      draft: action.draft,
      expected: action.expected,
      startedAt: action.at,
      phase: 'running',
      servers: [],
      cancelling: false,
    }
  }
  const id = action.type === 'finished' ? action.result.searchId : action.searchId
  if (!run || run.searchId !== id) return run
  switch (action.type) {
    case 'progress':
      if (run.phase === 'running') {
        return {
          ...run,
          servers: [...run.servers.filter((s) => s.server !== action.result.server), action.result],
        }
      }
      return run.awaiting?.includes(action.result.server) ? lateProgress(run, action.result) : run
    case 'finished':
      return finished(run, action.result)
    case 'failed':
      return { ...run, phase: 'failed', error: action.message }
    case 'cancelRequested':
      return run.phase === 'running' ? { ...run, cancelling: true } : run
  }
}

/** The run with the reply: each summed-up part takes the hits its progress event brought. */
function finished(run: SearchRun, reply: SearchReply): SearchRun {
  const arrived = new Map(run.servers.map((part) => [part.server, part]))
  const awaiting: string[] = []
  const servers = reply.servers.map((part): ServerSearchResult => {
    if (!isStreamed(part)) return part
    const streamed = arrived.get(part.server)
    if (streamed) return streamed
    // Its event has not come yet (no channel promises to order it before the reply).
    awaiting.push(part.server)
    const { streamed: _streamed, ...summary } = part
    return { ...summary, hits: [], violations: [], sourceErrors: [] }
  })
  const result: RunResult = { ...reply, servers }
  return {
    ...run,
    phase: 'done',
    servers,
    result,
    ...(awaiting.length > 0 ? { awaiting } : {}),
  }
}

/** A server's part that came after the reply summed it up. */
function lateProgress(run: SearchRun, part: ServerSearchResult): SearchRun {
  const replace = (parts: ServerSearchResult[]): ServerSearchResult[] =>
    parts.map((p) => (p.server === part.server ? part : p))
  const awaiting = run.awaiting!.filter((server) => server !== part.server)
  const { awaiting: _awaiting, ...rest } = run
  return {
    ...rest,
    servers: replace(run.servers),
    ...(run.result ? { result: { ...run.result, servers: replace(run.result.servers) } } : {}),
    ...(awaiting.length > 0 ? { awaiting } : {}),
  }
}

const isStreamed = (part: ServerSearchResult | StreamedPart): part is StreamedPart =>
  'streamed' in part

/** Servers listed in the waterfall: those that answered, then those still expected. */
export function waterfallRows(
  run: SearchRun,
): ({ server: string; result: ServerSearchResult } | { server: string; result?: undefined })[] {
  const answered = run.servers.map((result) => ({ server: result.server, result }))
  const pending = run.phase === 'running' ? run.expected : []
  return [
    ...answered,
    ...pending
      .filter((s) => !run.servers.some((r) => r.server === s))
      .map((server) => ({ server })),
  ]
}

/**
 * The merged list in the fusion chosen now: main's while it is the one the search ran with,
 * else the per-server hits fused again here (a pure step, so a new fusion re-sorts at once).
 */
export function mergedHits(run: SearchRun | null, fusion: FusionMode): MergedHit[] | undefined {
  const result = run?.result
  if (!run || !result) return undefined
  // A streamed reply leaves out where each hit was found: the parts the run holds say it.
  if (result.fusion === fusion) return withPlaces(result.hits, result.servers)
  return mergeResults(result.servers, fusion, run.draft.topK)
}
