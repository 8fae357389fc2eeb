import type { EvalRunSummary, GoldenSetSummary } from '#shared/model/evaluation'
import type { RegistrySource } from '#shared/model/registry'

/**
 * The Evaluation panel's head and tabs, worked out from the sets and runs: which set is shown,
 * whether the demo set is offered, and what the Runs tab's badge says.
 */

/** The set chosen, or the first one while none is (or the chosen one is gone). */
export function shownSet(
  sets: readonly GoldenSetSummary[] | undefined,
  chosen: string | null,
): GoldenSetSummary | undefined {
  return sets?.find((s) => s.id === chosen) ?? sets?.[0]
}

/**
 * The demo set's documents are those of the embedded registry's servers: it is offered there
 * only, and only while there is no demo set.
 */
export function offersDemo(
  registry: Pick<RegistrySource, 'kind'> | undefined,
  sets: readonly GoldenSetSummary[] | undefined,
): boolean {
  return registry?.kind === 'embedded' && !sets?.some((s) => s.id === 'demo')
}

/** The Runs tab's badge: `running` while a run is in flight, else how many runs there are. */
export function runsBadge(
  runs: readonly EvalRunSummary[] | undefined,
): { tone: 'info' | 'neutral'; text: string } | null {
  if (runs?.some((run) => run.status === 'running')) return { tone: 'info', text: 'running' }
  return runs?.length ? { tone: 'neutral', text: String(runs.length) } : null
}
