import { queryOptions, skipToken, type QueryClient } from '@tanstack/react-query'
import type { AccessTargetInput } from '../../../../shared/ipc/rag'
import type { AccessCheck } from '../../../../shared/model/rag'
import { call } from '../../api'
import { serverKeys } from '../servers/queries'

/** One check made in this session, with what was asked. */
export interface HistoryEntry {
  id: number
  target: AccessTargetInput
  check: AccessCheck
  /** The profile it was checked as; absent: the active one at the time. */
  profileId?: string
}

/** A batch handed over by another panel (e.g. a search's citations). */
export interface BatchSpec {
  batchId: string
  label: string
  targets: AccessTargetInput[]
  startedAt: number
}

/** Checks kept per session; older ones drop off. */
export const HISTORY_LIMIT = 200

export const accessKeys = {
  all: ['access'] as const,
  history: () => ['access', 'history'] as const,
  batches: () => ['access', 'batches'] as const,
  batch: (batchId: string) => ['access', 'batch', batchId] as const,
}

/**
 * Session results are written by the panel (never fetched), never go stale and are never
 * collected: only this session has them.
 */
const session = { staleTime: Infinity, gcTime: Infinity } as const

export const accessQueries = {
  /** Servers the acting user may check segments on. */
  servers: () =>
    queryOptions({
      queryKey: [...serverKeys.all, 'list'] as const,
      queryFn: () => call('servers:list'),
    }),
  /** This session's checks, newest first. */
  history: () =>
    queryOptions({
      queryKey: accessKeys.history(),
      queryFn: skipToken,
      initialData: (): HistoryEntry[] => [],
      ...session,
    }),
  /** Batches handed over in this session, newest first. */
  batches: () =>
    queryOptions({
      queryKey: accessKeys.batches(),
      queryFn: skipToken,
      initialData: (): BatchSpec[] => [],
      ...session,
    }),
  /** Runs one batch once; its result stays for the session. */
  batch: (batch: BatchSpec) =>
    queryOptions({
      queryKey: accessKeys.batch(batch.batchId),
      queryFn: () => call('access:check-all', { batchId: batch.batchId, targets: batch.targets }),
      ...session,
      retry: false,
    }),
}

let nextId = 1

/** Adds a finished check to the session history; returns its entry. */
export function recordCheck(
  queryClient: QueryClient,
  target: AccessTargetInput,
  check: AccessCheck,
  profileId?: string,
): HistoryEntry {
  const entry: HistoryEntry = { id: nextId++, target, check, ...(profileId ? { profileId } : {}) }
  queryClient.setQueryData<HistoryEntry[]>(accessKeys.history(), (list = []) =>
    [entry, ...list].slice(0, HISTORY_LIMIT),
  )
  return entry
}

/** Adds a batch to the session; the Batch view runs it. */
export function recordBatch(queryClient: QueryClient, batch: BatchSpec): void {
  queryClient.setQueryData<BatchSpec[]>(accessKeys.batches(), (list = []) => [batch, ...list])
}
