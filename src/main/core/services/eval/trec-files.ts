import { ConsoleError } from '#shared/errors'
import type {
  EvalList,
  EvalQueryResult,
  EvalRun,
  GoldenSet,
  Judgment,
} from '#shared/model/evaluation'
import { formatRun, parseQrels, parseRun, parseTopics } from './trec'
import { cellsOf, judgmentsOf, listKey } from './run-metrics'

/**
 * Merges TREC qrels (and topics) into a set: judgments replace those of the same document,
 * new queries need a topic line (their text); unknown-text queries are skipped and counted.
 */
export function mergeQrels(
  set: GoldenSet,
  qrelsText: string,
  topicsText?: string,
): { set: GoldenSet; skipped: number; skippedLines: number[] } {
  const { queries, skipped: badLines, skippedLines } = parseQrels(qrelsText)
  const topics = topicsText
    ? parseTopics(topicsText)
    : { topics: new Map<string, string>(), skipped: 0 }
  const next: GoldenSet = structuredClone(set)
  let skipped = badLines + topics.skipped
  for (const [qid, judged] of queries) {
    let query = next.queries.find((q) => q.id === qid)
    if (!query) {
      const text = topics.topics.get(qid)
      if (!text) {
        skipped += judged.size
        continue
      }
      query = { id: qid, query: text, judgments: [] }
      next.queries.push(query)
    }
    const kept = new Map(query.judgments.map((j) => [j.docKey, j]))
    for (const [docKey, grade] of judged) {
      const before = kept.get(docKey)
      kept.set(docKey, { ...before, docKey, grade } satisfies Judgment)
    }
    query.judgments = [...kept.values()]
  }
  if (queries.size > 0 && next.queries.length === 0) {
    throw new ConsoleError({
      code: 'invalid_argument',
      message:
        'none of the qrels queries has a text: give the topics file (qid<TAB>query per line)',
    })
  }
  return { set: next, skipped, skippedLines }
}

/**
 * A TREC run file as a run of `set`: one provider named by the file's tag, one profile
 * (`trec`), queries of the set only (others are skipped and counted), k = the longest list.
 */
export function runFromTrec(
  set: GoldenSet,
  text: string,
  runId: string,
  now: Date,
): { run: EvalRun; skipped: number; skippedLines: number[] } {
  const parsed = parseRun(text)
  const known = new Map(set.queries.map((q) => [q.id, q]))
  let skipped = parsed.skipped
  const results: EvalQueryResult[] = []
  for (const [qid, docKeys] of parsed.queries) {
    if (!known.has(qid)) {
      skipped += docKeys.length
      continue
    }
    results.push({
      queryId: qid,
      profileId: known.get(qid)!.profileId ?? 'trec',
      elapsedMs: 0,
      providers: [
        {
          server: parsed.tag,
          ok: true,
          latencyMs: 0,
          hits: docKeys.map((docKey) => ({ docKey, id: docKey, title: '' })),
        },
      ],
    })
  }
  if (results.length === 0) {
    throw new ConsoleError({
      code: 'invalid_argument',
      message: `the run file has no lines for the queries of golden set ${set.id}`,
    })
  }
  const k = Math.min(100, Math.max(1, ...results.map((r) => r.providers[0]!.hits.length)))
  const at = now.toISOString()
  return {
    run: {
      version: 1,
      summary: {
        id: runId,
        setId: set.id,
        setName: set.name,
        status: 'done',
        startedAt: at,
        finishedAt: at,
        total: results.length,
        done: results.length,
        failures: 0,
        servers: [parsed.tag],
        profiles: [...new Set(results.map((r) => r.profileId))],
        k,
        imported: true,
      },
      inputs: { setId: set.id, setName: set.name, profiles: ['trec'], k, concurrency: 1 },
      queries: set.queries.filter((q) => results.some((r) => r.queryId === q.id)),
      results,
    },
    skipped,
    skippedLines: parsed.skippedLines,
  }
}

/** One list of a run, for one profile, as a TREC run file. */
export function runToTrec(run: EvalRun, list: EvalList, profileId?: string): string {
  const profiles = [...new Set(run.results.map((r) => r.profileId))]
  const profile = profileId ?? (profiles.length === 1 ? profiles[0] : undefined)
  const fixed = new Set(run.queries.filter((q) => q.profileId).map((q) => q.id))
  if (
    profile === undefined &&
    profiles.length > 1 &&
    run.results.some((r) => !fixed.has(r.queryId))
  ) {
    throw new ConsoleError({
      code: 'invalid_argument',
      message: `run ${run.summary.id} ran as ${profiles.join(', ')}: name the profile to export`,
    })
  }
  const cells = cellsOf(run, run.inputs.k, judgmentsOf(run.queries)).filter(
    (cell) =>
      listKey(cell.list) === listKey(list) &&
      (cell.profileId === profile || fixed.has(cell.queryId)),
  )
  const tag = list.kind === 'provider' ? list.server : `merged-${list.fusion}`
  return formatRun(
    cells.map((cell) => ({ queryId: cell.queryId, docKeys: cell.top })),
    tag,
  )
}
