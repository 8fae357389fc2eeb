import type {
  EvalPool,
  EvalRun,
  GoldenSet,
  PoolDocument,
  PoolQuery,
} from '#shared/model/evaluation'
import { mean } from './metrics'
import { cellsOf, groupBy, judgmentsOf, listKey, listsOf } from './run-metrics'

/**
 * TREC's depth-k pooling: per query of the set, the union of every provider's top `depth` over
 * the runs (a run that kept fewer gives what it kept), each document under the set's key for it
 * (aliases read as their document) with its grade in the set now. Documents come by their best
 * rank, then by how many lists had them; queries without a document are left out. The coverage
 * is judged@depth of every list of every run against the set now (so it rises as the pool is
 * judged), over the run's queries that have a list.
 */
export function poolOf(set: GoldenSet, runs: readonly EvalRun[], depth: number): EvalPool {
  const judged = judgmentsOf(set.queries)
  const queries: PoolQuery[] = []
  let size = 0
  let graded = 0
  for (const query of set.queries) {
    const { qrels, canonical } = judged(query.id)
    const documents = new Map<string, PoolDocument>()
    for (const run of runs) {
      for (const result of run.results) {
        if (result.queryId !== query.id) continue
        for (const provider of result.providers) {
          const seen = new Set<string>()
          for (const hit of provider.hits.slice(0, depth)) {
            const docKey = canonical(hit.docKey)
            if (seen.has(docKey)) continue
            seen.add(docKey)
            const doc = documents.get(docKey) ?? newDocument(docKey, qrels.get(docKey))
            if (!doc.title && hit.title) doc.title = hit.title
            doc.found.push({
              runId: run.summary.id,
              server: provider.server,
              profileId: result.profileId,
              rank: seen.size,
            })
            documents.set(docKey, doc)
          }
        }
      }
    }
    if (documents.size === 0) continue
    const best = (doc: PoolDocument): number => Math.min(...doc.found.map((f) => f.rank))
    const ordered = [...documents.values()].sort(
      (a, b) =>
        best(a) - best(b) || b.found.length - a.found.length || a.docKey.localeCompare(b.docKey),
    )
    for (const doc of ordered) {
      const judgment = query.judgments.find((j) => j.docKey === doc.docKey)
      if (judgment?.uri && !doc.uri) doc.uri = judgment.uri
      if (!doc.title && judgment?.title) doc.title = judgment.title
    }
    size += ordered.length
    graded += ordered.filter((doc) => doc.grade !== null).length
    queries.push({ queryId: query.id, query: query.query, documents: ordered })
  }
  return {
    setId: set.id,
    depth,
    runIds: runs.map((run) => run.summary.id),
    queries,
    size,
    judged: graded,
    coverage: runs.flatMap((run) => {
      const known = new Set(set.queries.map((q) => q.id))
      const cells = cellsOf(run, Math.min(depth, run.inputs.k), judged).filter((cell) =>
        known.has(cell.queryId),
      )
      const byList = groupBy(cells, (cell) => listKey(cell.list))
      return listsOf(run).map((list) => {
        const shares = (byList.get(listKey(list)) ?? []).flatMap((cell) =>
          cell.judgedAtK === null ? [] : [cell.judgedAtK],
        )
        return {
          runId: run.summary.id,
          list,
          judgedAtK: shares.length === 0 ? null : mean(shares),
        }
      })
    }),
  }
}

function newDocument(docKey: string, grade: PoolDocument['grade'] | undefined): PoolDocument {
  const doc: PoolDocument = { docKey, title: '', grade: grade ?? null, found: [] }
  if (docKey.startsWith('uri:')) doc.uri = docKey.slice('uri:'.length)
  return doc
}
