import type {
  EvalQuery,
  EvalRun,
  LostDocument,
  MetricDelta,
  QueryChange,
  RunComparison,
} from '#shared/model/evaluation'
import { QUALITY_METRICS, type QualityMetric } from '#shared/model/evaluation'
import { mean } from './metrics'
import { cellsOf, checkK, judgmentsOf, listKey, listsOf, type Cell } from './run-metrics'
import { pairedRandomizationTest } from './significance'

// Float noise is no change.
const EPSILON = 1e-9

const valueOf = (cell: Cell, metric: QualityMetric): number =>
  metric === 'mrr' ? cell.rr : metric === 'hitRate' ? (cell.hit ? 1 : 0) : cell[metric]

/**
 * Run A against run B at cutoff k. Both are judged by B's snapshot of the set (the same
 * judgments on both sides, so only retrieval differs). Queries pair by id and profile; a run
 * with a single profile pairs with another single-profile run whatever the profiles' ids. Only
 * pairs with a relevant judgment count; lists present in both runs are compared.
 */
export function compareRuns(
  a: EvalRun,
  b: EvalRun,
  k = Math.min(a.inputs.k, b.inputs.k),
): RunComparison {
  checkK(a, k)
  checkK(b, k)
  const qrels = judgmentsOf(b.queries)
  const pairKey = pairing(a, b)
  const index = (run: EvalRun): Map<string, Cell> =>
    new Map(
      cellsOf(run, k, qrels)
        // A provider hidden from the profile was not asked: nothing to compare.
        .filter((cell) => cell.relevant > 0 && !cell.hidden)
        .map((cell) => [`${listKey(cell.list)}\u0000${pairKey(cell)}`, cell]),
    )
  const cellsA = index(a)
  const cellsB = index(b)
  const texts = new Map<string, EvalQuery>(b.queries.map((q) => [q.id, q]))
  const deltas: MetricDelta[] = []
  const better: QueryChange[] = []
  const worse: QueryChange[] = []
  const lostDocuments: LostDocument[] = []
  const listsB = new Set(listsOf(b).map(listKey))
  for (const list of listsOf(a).filter((l) => listsB.has(listKey(l)))) {
    const prefix = `${listKey(list)}\u0000`
    const pairs = [...cellsA]
      .filter(([key]) => key.startsWith(prefix) && cellsB.has(key))
      .map(([key, cellA]) => [cellA, cellsB.get(key)!] as const)
    for (const metric of QUALITY_METRICS) {
      const valuesA = pairs.map(([x]) => valueOf(x, metric))
      const valuesB = pairs.map(([, y]) => valueOf(y, metric))
      const meanA = mean(valuesA)
      const meanB = mean(valuesB)
      deltas.push({
        list,
        metric,
        a: meanA,
        b: meanB,
        delta: meanB - meanA,
        pValue: pairedRandomizationTest(valuesA, valuesB),
        pairs: pairs.length,
      })
    }
    for (const [cellA, cellB] of pairs) {
      const query = texts.get(cellB.queryId)?.query ?? cellB.queryId
      const base = { queryId: cellB.queryId, profileId: cellB.profileId, query, list }
      const delta = cellB.ndcg - cellA.ndcg
      if (delta > EPSILON) better.push({ ...base, a: cellA.ndcg, b: cellB.ndcg, delta })
      if (delta < -EPSILON) worse.push({ ...base, a: cellA.ndcg, b: cellB.ndcg, delta })
      const judged = qrels(cellB.queryId).qrels
      const kept = new Set(cellB.top)
      cellA.top.forEach((docKey, rank) => {
        const grade = judged.get(docKey) ?? 0
        if (grade <= 0 || kept.has(docKey)) return
        const lost: LostDocument = { ...base, docKey, grade, rankInA: rank + 1 }
        const title = titleOf(a, cellA, docKey)
        if (title) lost.title = title
        lostDocuments.push(lost)
      })
    }
  }
  better.sort((x, y) => y.delta - x.delta)
  worse.sort((x, y) => x.delta - y.delta)
  return { runA: a.summary, runB: b.summary, k, deltas, better, worse, lostDocuments }
}

/** How a cell's (query, profile) is named so both runs' cells meet. */
function pairing(a: EvalRun, b: EvalRun): (cell: Cell) => string {
  const single = a.inputs.profiles.length === 1 && b.inputs.profiles.length === 1
  const fixed = new Map(b.queries.map((q) => [q.id, q.profileId]))
  return (cell) => {
    const ownProfile = fixed.get(cell.queryId)
    const profile = single && !ownProfile ? '*' : cell.profileId
    return `${cell.queryId}\u0000${profile}`
  }
}

function titleOf(run: EvalRun, cell: Cell, docKey: string): string | undefined {
  const result = run.results.find(
    (r) => r.queryId === cell.queryId && r.profileId === cell.profileId,
  )
  for (const provider of result?.providers ?? []) {
    const hit = provider.hits.find((h) => h.docKey === docKey)
    if (hit?.title) return hit.title
  }
  return undefined
}
