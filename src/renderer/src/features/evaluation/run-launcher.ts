import type { InvokeRequest } from '#shared/ipc/contract'
import type { EvalRunSummary, GoldenSetSummary } from '#shared/model/evaluation'
import type { Selection } from '#shared/model/operations'
import { plural } from '../../lib/format'
import type { RunPlan } from './run-plan'

/**
 * The run launcher's decisions: what a tick flips, whether Run can start and what its title
 * says, the request that starts the run, and the progress line of a run in flight.
 */

/** The list with `item` taken out if it was in, else added. */
export function flipped<T>(list: Iterable<T>, item: T): T[] {
  const next = new Set(list)
  if (!next.delete(item)) next.add(item)
  return [...next]
}

/** A server's tick title: the sources it searches. */
export function sourceNames(sources: readonly { name: string }[]): string {
  return sources.length > 0
    ? `Sources: ${sources.map((s) => s.name).join(', ')}`
    : 'Default sources'
}

/** What the launcher has chosen, as Run sees it. */
export interface RunChoice {
  set: Pick<GoldenSetSummary, 'queryCount'>
  /** The servers ticked (and taking part). */
  servers: number
  /** The profiles ticked. */
  profiles: number
  plan: RunPlan | undefined
}

/** Whether Run can start, and its title: what is missing, or what the run will do. */
export function runButton({ set, servers, profiles, plan }: RunChoice): {
  disabled: boolean
  title: string
} {
  const disabled = servers === 0 || profiles === 0 || set.queryCount === 0 || plan?.searches === 0
  const title =
    set.queryCount === 0
      ? 'The set has no queries'
      : servers === 0
        ? 'Choose a server'
        : profiles === 0
          ? 'Choose a profile'
          : `${plural(plan?.searches ?? set.queryCount, 'search', 'searches')} on ${plural(servers, 'server')}`
  return { disabled, title }
}

/** The `eval:run` request: the set, k, the profiles, and the servers and queries when narrowed. */
export function runRequest(
  setId: string,
  k: number,
  profiles: readonly string[],
  selection: Selection | undefined,
  plan: RunPlan | undefined,
): InvokeRequest<'eval:run'> {
  return {
    setId,
    k,
    profiles: [...profiles],
    ...(selection ? { selection } : {}),
    ...(plan?.queryIds ? { queryIds: plan.queryIds } : {}),
  }
}

/** `12 of 31 queries · 2 failed calls`. */
export function progressText(run: Pick<EvalRunSummary, 'done' | 'total' | 'failures'>): string {
  return `${run.done} of ${run.total} queries${run.failures > 0 ? ` · ${plural(run.failures, 'failed call')}` : ''}`
}
