import type { EvalRunSummary } from '#shared/model/evaluation'

/**
 * A set's runs, newest first: the stored ones and those started here that are still running
 * (the core stores a run when it ends). A stored run replaces its running copy.
 */
export function runsOfSet(
  stored: readonly EvalRunSummary[],
  running: readonly EvalRunSummary[],
  setId: string,
): EvalRunSummary[] {
  const ids = new Set(stored.map((run) => run.id))
  const live = running.filter((run) => run.setId === setId && !ids.has(run.id))
  return [...live, ...stored].sort(
    (a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id),
  )
}
