import { ConsoleError } from '#shared/errors'
import {
  hiddenFromProfile,
  type EvalHit,
  type EvalList,
  type EvalMetrics,
  type EvalQuery,
  type EvalQueryResult,
  type EvalRun,
  type Grade,
  type MetricRow,
  type MetricValues,
  type PerQueryMetric,
} from '#shared/model/evaluation'
import { fuseHits } from '#shared/model/fusion'
import type { FusionMode } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { mean, percentile, scoreQuery, topK, type Qrels } from './metrics'

export const FUSION_MODES: readonly FusionMode[] = ['rrf', 'score', 'minmax']

/** One (query, profile) in one list: its values and the top k it was measured on. */
export interface Cell extends PerQueryMetric {
  top: string[]
}

/** One query's judgments: grades by document key, and every alias mapped to its document. */
export interface Judged {
  qrels: Qrels
  canonical(docKey: string): string
}

/** Judgments per query id, as a run snapshot (or another) has them. */
export type JudgmentsOf = (queryId: string) => Judged

export function judgmentsOf(queries: readonly EvalQuery[]): JudgmentsOf {
  const byId = new Map<string, Judged>()
  for (const query of queries) {
    const aliases = new Map<string, string>()
    for (const j of query.judgments)
      for (const alias of j.aliases ?? []) aliases.set(alias, j.docKey)
    byId.set(query.id, {
      qrels: new Map(query.judgments.map((j) => [j.docKey, j.grade as Grade])),
      canonical: (docKey) => aliases.get(docKey) ?? docKey,
    })
  }
  const none: Judged = { qrels: new Map(), canonical: (docKey) => docKey }
  return (queryId) => byId.get(queryId) ?? none
}

export const listKey = (list: EvalList): string =>
  list.kind === 'provider' ? `provider:${list.server}` : `merged:${list.fusion}`

/** Every list a run can be measured on: each provider's, then the merged list per fusion. */
export function listsOf(run: EvalRun): EvalList[] {
  return [
    ...run.summary.servers.map((server): EvalList => ({ kind: 'provider', server })),
    ...FUSION_MODES.map((fusion): EvalList => ({ kind: 'merged', fusion })),
  ]
}

/** Refuses a cutoff above what the run kept. */
export function checkK(run: EvalRun, k: number): void {
  if (k > run.inputs.k) {
    throw new ConsoleError({
      code: 'invalid_argument',
      message: `run ${run.summary.id} kept ${run.inputs.k} hits per list; metrics at k=${k} need a run with k ≥ ${k}`,
    })
  }
}

/** Every (query, profile) × list cell of a run at cutoff k, judged by `qrels`. */
export function cellsOf(run: EvalRun, k: number, qrels: JudgmentsOf): Cell[] {
  const lists = listsOf(run)
  const cells: Cell[] = []
  for (const result of run.results) {
    const judged = qrels(result.queryId)
    for (const list of lists) {
      const ranked = rankedList(result, list)
      if (!ranked) continue
      const docKeys = ranked.docKeys.map(judged.canonical)
      const scores = scoreQuery(docKeys, judged.qrels, k)
      cells.push({
        queryId: result.queryId,
        profileId: result.profileId,
        list,
        recall: scores.recall,
        precision: scores.precision,
        rr: scores.rr,
        ndcg: scores.ndcg,
        hit: scores.hit,
        failed: ranked.failed,
        ...(ranked.hidden ? { hidden: true } : {}),
        latencyMs: ranked.latencyMs,
        relevant: scores.relevant,
        found: scores.found,
        judgedAtK: scores.judged,
        top: topK(docKeys, k),
      })
    }
  }
  return cells
}

/**
 * Averages cells into one row's values (quality over judged queries only). A provider hidden
 * from the profile was not asked: its cells are no observation of it.
 */
export function aggregate(all: readonly Cell[]): MetricValues {
  const cells = all.filter((cell) => !cell.hidden)
  const judged = cells.filter((cell) => cell.relevant > 0)
  const failed = cells.filter((cell) => cell.failed).length
  const latencies = cells.filter((cell) => !cell.failed).map((cell) => cell.latencyMs)
  const coverage = judged.flatMap((cell) => (cell.judgedAtK === null ? [] : [cell.judgedAtK]))
  return {
    recall: mean(judged.map((c) => c.recall)),
    precision: mean(judged.map((c) => c.precision)),
    mrr: mean(judged.map((c) => c.rr)),
    ndcg: mean(judged.map((c) => c.ndcg)),
    hitRate: mean(judged.map((c) => (c.hit ? 1 : 0))),
    judgedAtK: coverage.length === 0 ? null : mean(coverage),
    failureRate: cells.length === 0 ? 0 : failed / cells.length,
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP95Ms: percentile(latencies, 0.95),
    queries: cells.length,
    judged: judged.length,
    failed,
  }
}

/**
 * A run's metric table at cutoff k, judged by the run's own snapshot of the set: a row per list
 * over every profile, and when the run has several profiles a row per list and profile.
 */
export function runMetrics(run: EvalRun, k = run.inputs.k): EvalMetrics {
  checkK(run, k)
  const cells = cellsOf(run, k, judgmentsOf(run.queries))
  const byList = groupBy(cells, (cell) => listKey(cell.list))
  const profiles = [...new Set(run.results.map((r) => r.profileId))].sort()
  const rows: MetricRow[] = []
  for (const list of listsOf(run)) {
    const own = byList.get(listKey(list)) ?? []
    rows.push({ list, values: aggregate(own) })
    if (profiles.length < 2) continue
    for (const profileId of profiles) {
      const mine = own.filter((c) => c.profileId === profileId)
      if (mine.length > 0) rows.push({ list, profileId, values: aggregate(mine) })
    }
  }
  return { run: run.summary, k, rows, perQuery: cells.map(({ top: _top, ...cell }) => cell) }
}

export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const group = groups.get(key(item))
    if (group) group.push(item)
    else groups.set(key(item), [item])
  }
  return groups
}

interface Ranked {
  docKeys: string[]
  failed: boolean
  /** Not asked: hidden from the profile (provider lists; merged when every provider was). */
  hidden?: boolean
  latencyMs: number
}

/** A result's ranking in one list; undefined when that provider was not asked for this query. */
function rankedList(result: EvalQueryResult, list: EvalList): Ranked | undefined {
  if (list.kind === 'provider') {
    const provider = result.providers.find((p) => p.server === list.server)
    if (!provider) return undefined
    const hidden = !provider.ok && hiddenFromProfile(provider.error)
    return {
      docKeys: provider.hits.map((hit) => hit.docKey),
      failed: !provider.ok && !hidden,
      ...(hidden ? { hidden } : {}),
      latencyMs: provider.latencyMs,
    }
  }
  const asked = result.providers.filter((p) => p.ok || !hiddenFromProfile(p.error))
  const answered = asked.filter((p) => p.ok)
  const merged = fuseHits(
    answered.map((p) => ({ server: p.server, hits: p.hits.map((hit) => asHit(p.server, hit)) })),
    list.fusion,
  )
  const hidden = result.providers.length > 0 && asked.length === 0
  return {
    docKeys: merged.map((hit) => hit.id),
    failed: asked.length > 0 && answered.length === 0,
    ...(hidden ? { hidden } : {}),
    latencyMs: result.elapsedMs,
  }
}

/**
 * A stored hit as fusion takes it. Its id is its document key, already the dedupe identity:
 * fusion groups by `id:<docKey>` without parsing links again, and the merged list's ids are
 * the keys.
 */
function asHit(server: string, hit: EvalHit): Hit {
  return {
    server,
    id: hit.docKey,
    title: hit.title,
    snippet: '',
    ...(hit.score !== undefined ? { score: hit.score } : {}),
    ...(hit.scoreOrder !== undefined ? { scoreOrder: hit.scoreOrder } : {}),
    ...(hit.sourceId !== undefined ? { sourceId: hit.sourceId } : {}),
    derived: { title: false, summary: false },
    flags: [],
    violations: [],
    raw: undefined,
  }
}
