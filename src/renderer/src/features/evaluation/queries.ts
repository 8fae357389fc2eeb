import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { PoolDocumentRequest } from '#shared/ipc/evaluation'
import type { EventMap } from '#shared/ipc/events'
import type { EvalRunSummary } from '#shared/model/evaluation'
import { call } from '../../api'
import { useSessionData } from '../../lib/use-session-data'
import { runsOfSet } from './run-list'

export const evalKeys = {
  all: ['eval'] as const,
  sets: () => [...evalKeys.all, 'sets'] as const,
  set: (id: string) => [...evalKeys.all, 'set', id] as const,
  /** Runs of one set, newest first (`''`: every set). */
  runs: (setId = '') => [...evalKeys.all, 'runs', setId] as const,
  run: (runId: string) => [...evalKeys.all, 'run', runId] as const,
  /** Runs started here that have not ended (written by the panel and events, never fetched). */
  running: () => [...evalKeys.all, 'running'] as const,
  metrics: (runId: string, k: number) => [...evalKeys.all, 'metrics', runId, k] as const,
  compare: (runA: string, runB: string, k: number) =>
    [...evalKeys.all, 'compare', runA, runB, k] as const,
  pool: (setId: string, runIds: readonly string[], depth: number) =>
    [...evalKeys.all, 'pool', setId, runIds.join(','), depth] as const,
}

/**
 * A pool document's words, searched again on a server: outside `evalKeys.all`, which every
 * action reads again, so judging does not search anew for texts already shown.
 */
export const poolDocumentKey = (request: PoolDocumentRequest) =>
  [
    'eval-pool-document',
    request.runId,
    request.queryId,
    request.profileId,
    request.server,
    request.docKey,
  ] as const

export const evalQueries = {
  /** Every golden set, by name. */
  sets: () => queryOptions({ queryKey: evalKeys.sets(), queryFn: () => call('eval:sets') }),
  set: (id: string) =>
    queryOptions({ queryKey: evalKeys.set(id), queryFn: () => call('eval:set:get', { id }) }),
  runs: (setId?: string) =>
    queryOptions({
      queryKey: evalKeys.runs(setId),
      queryFn: () => call('eval:runs', setId ? { setId } : undefined),
    }),
  /** A stored run never changes once it has finished. */
  run: (runId: string) =>
    queryOptions({
      queryKey: evalKeys.run(runId),
      queryFn: () => call('eval:run:get', { runId }),
    }),
  metrics: (runId: string, k: number) =>
    queryOptions({
      queryKey: evalKeys.metrics(runId, k),
      queryFn: () => call('eval:metrics', { runId, k }),
      staleTime: Infinity,
    }),
  compare: (runA: string, runB: string, k: number) =>
    queryOptions({
      queryKey: evalKeys.compare(runA, runB, k),
      queryFn: () => call('eval:compare', { runA, runB, k }),
      staleTime: Infinity,
    }),
  /** Read again as judgments land (grades and coverage move). */
  pool: (setId: string, runIds: readonly string[], depth: number) =>
    queryOptions({
      queryKey: evalKeys.pool(setId, runIds, depth),
      queryFn: () => call('eval:pool', { setId, runIds: [...runIds], depth }),
      placeholderData: (previous) => previous,
    }),
  poolDocument: (request: PoolDocumentRequest) =>
    queryOptions({
      queryKey: poolDocumentKey(request),
      queryFn: () => call('eval:pool:document', request),
      staleTime: Infinity,
      retry: false,
    }),
}

/** A run this window started: listed (with its progress) until it ends and is stored. */
export function addRunningRun(queryClient: QueryClient, run: EvalRunSummary): void {
  // null: the panel read the list before anything ran.
  queryClient.setQueryData<EvalRunSummary[] | null>(evalKeys.running(), (runs) => [
    run,
    ...(runs ?? []).filter((r) => r.id !== run.id),
  ])
}

/** A running run's progress lands wherever it is listed. */
export function applyRunProgress(queryClient: QueryClient, event: EventMap['eval:progress']): void {
  const progress = (runs: EvalRunSummary[] | undefined) =>
    runs?.map((run) =>
      run.id === event.runId
        ? { ...run, done: event.done, total: event.total, failures: event.failures }
        : run,
    )
  queryClient.setQueriesData<EvalRunSummary[]>({ queryKey: [...evalKeys.all, 'runs'] }, progress)
  queryClient.setQueryData<EvalRunSummary[]>(evalKeys.running(), progress)
}

/** A run ended: its lists, its stored copy and its metrics are read again. */
export function applyRunFinished(
  queryClient: QueryClient,
  { run }: EventMap['eval:run-finished'],
): void {
  queryClient.setQueriesData<EvalRunSummary[]>({ queryKey: [...evalKeys.all, 'runs'] }, (runs) =>
    runs?.map((summary) => (summary.id === run.id ? run : summary)),
  )
  queryClient.setQueryData<EvalRunSummary[]>(evalKeys.running(), (runs) =>
    runs?.filter((summary) => summary.id !== run.id),
  )
  void queryClient.invalidateQueries({ queryKey: [...evalKeys.all, 'runs'] })
  void queryClient.invalidateQueries({ queryKey: evalKeys.run(run.id) })
  void queryClient.invalidateQueries({ queryKey: [...evalKeys.all, 'metrics', run.id] })
  // The set's summary (last run) may show it.
  void queryClient.invalidateQueries({ queryKey: evalKeys.sets() })
}

/** A set's runs: stored, and started here and still running (see {@link runsOfSet}). */
export function useRunsOfSet(setId: string | undefined): {
  runs: EvalRunSummary[] | undefined
  isPending: boolean
} {
  const stored = useQuery({ ...evalQueries.runs(setId ?? ''), enabled: setId !== undefined })
  const [running] = useSessionData<EvalRunSummary[]>(evalKeys.running())
  const runs = useMemo(
    () => (stored.data && setId ? runsOfSet(stored.data, running ?? [], setId) : undefined),
    [stored.data, running, setId],
  )
  return { runs, isPending: stored.isPending }
}
