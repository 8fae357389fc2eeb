import { isExternalHttpUrl } from '#shared/csp'
import type { PoolDocumentRequest } from '#shared/ipc/evaluation'
import type { EvalPool, Grade, PoolDocument } from '#shared/model/evaluation'
import { gradeOfKey } from './grades'
import { listKey } from './metric-view'

/** One document to judge, in the order the judging walks the pool. */
export interface PoolItem {
  /** `queryId docKey`: stable while the pool is read again. */
  key: string
  queryId: string
  query: string
  doc: PoolDocument
}

export const poolItemKey = (queryId: string, docKey: string): string => `${queryId}\u0000${docKey}`

/**
 * The documents of the pool that have no judgment, query by query, each query's by best rank:
 * what a judging session walks. Taken once when the session starts, so a document stays in its
 * place (and can be gone back to) once it is judged.
 */
export function poolToJudge(pool: EvalPool): PoolItem[] {
  return pool.queries.flatMap((query) =>
    query.documents
      .filter((doc) => doc.grade === null)
      .map((doc) => ({
        key: poolItemKey(query.queryId, doc.docKey),
        queryId: query.queryId,
        query: query.query,
        doc,
      })),
  )
}

/** Each pooled document's grade now (`queryId docKey` → grade; null: not judged). */
export function poolGrades(pool: EvalPool | undefined): ReadonlyMap<string, Grade | null> {
  const grades = new Map<string, Grade | null>()
  for (const query of pool?.queries ?? []) {
    for (const doc of query.documents) grades.set(poolItemKey(query.queryId, doc.docKey), doc.grade)
  }
  return grades
}

/** What a key does while judging: a grade (then on to the next), or a move. */
export type JudgingKey =
  { kind: 'grade'; grade: Grade } | { kind: 'move'; step: 1 | -1 } | { kind: 'clear' }

export function judgingKey(key: string): JudgingKey | undefined {
  const grade = gradeOfKey(key)
  if (grade !== undefined) return { kind: 'grade', grade }
  if (key === 'ArrowRight' || key === 'n' || key === 'j') return { kind: 'move', step: 1 }
  if (key === 'ArrowLeft' || key === 'p' || key === 'k') return { kind: 'move', step: -1 }
  if (key === 'Delete' || key === 'Backspace') return { kind: 'clear' }
  return undefined
}

/** A key pressed on the document being judged. */
export interface JudgingPress {
  key: string
  altKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  /** Something inside handled it already. */
  defaultPrevented: boolean
}

/**
 * What a key press does while judging: nothing with a modifier held, once handled, or when
 * typed into an input field (`inInput`: words, not judging keys).
 */
export function judgingPress(press: JudgingPress, inInput: boolean): JudgingKey | undefined {
  if (press.defaultPrevented || inInput || press.altKey || press.ctrlKey || press.metaKey) {
    return undefined
  }
  return judgingKey(press.key)
}

/** The run, profile and server that ranked the document best: asked for its words. */
export function documentRequest(item: PoolItem): PoolDocumentRequest {
  const best = [...item.doc.found].sort((a, b) => a.rank - b.rank)[0]!
  return {
    runId: best.runId,
    queryId: item.queryId,
    profileId: best.profileId,
    server: best.server,
    docKey: item.doc.docKey,
  }
}

/** A document's link, when it is one a browser opens (http or https); else none. */
export function webLink(link: string | undefined): string | undefined {
  return link && isExternalHttpUrl(link) ? link : undefined
}

/** Where a document was found, shortest first: `knowledgeSearch #1, documentVault #3`. */
export function foundText(doc: PoolDocument): string {
  const best = new Map<string, number>()
  for (const f of doc.found) best.set(f.server, Math.min(best.get(f.server) ?? Infinity, f.rank))
  return [...best]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .map(([server, rank]) => `${server} #${rank}`)
    .join(', ')
}

/** The coverage of one list across the pooled runs: judged@depth per run, in the pool's order. */
export interface CoverageRow {
  key: string
  list: EvalPool['coverage'][number]['list']
  values: (number | null)[]
}

/** Lists as rows, runs as columns (in `pool.runIds` order). */
export function coverageRows(pool: EvalPool): CoverageRow[] {
  const rows = new Map<string, CoverageRow>()
  for (const entry of pool.coverage) {
    const key = listKey(entry.list)
    const row = rows.get(key) ?? {
      key,
      list: entry.list,
      values: pool.runIds.map(() => null),
    }
    row.values[pool.runIds.indexOf(entry.runId)] = entry.judgedAtK
    rows.set(key, row)
  }
  return [...rows.values()]
}
