import { queryOptions, skipToken, type QueryClient } from '@tanstack/react-query'
import type { AccessHistoryEntry, AccessTargetInput } from '#shared/ipc/rag'
import { call } from '../../api'
import { serverKeys } from '../servers/queries'

/** One check of the history (kept by main in the data folder, so it survives reloads). */
export type HistoryEntry = AccessHistoryEntry

/** A batch handed over by another panel (e.g. a search's citations). */
export interface BatchSpec {
  batchId: string
  label: string
  targets: AccessTargetInput[]
  startedAt: number
  /** Whom to check as; absent: the active (“View as”) profile. */
  profileId?: string
}

export const accessKeys = {
  all: ['access'] as const,
  history: () => ['access', 'history'] as const,
  batches: () => ['access', 'batches'] as const,
  batch: (batchId: string) => ['access', 'batch', batchId] as const,
  linkPolicy: () => ['access', 'link-policy'] as const,
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
  /** Recent checks, newest first (main keeps them across reloads and restarts). */
  history: () =>
    queryOptions({
      queryKey: accessKeys.history(),
      queryFn: () => call('access:history'),
    }),
  /** Which addresses the checker may request (settings.json's `linkPolicy`). */
  linkPolicy: () =>
    queryOptions({ queryKey: accessKeys.linkPolicy(), queryFn: () => call('link-policy:get') }),
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
      queryFn: () =>
        call('access:check-all', {
          batchId: batch.batchId,
          targets: batch.targets,
          ...(batch.profileId ? { profileId: batch.profileId } : {}),
        }),
      ...session,
      retry: false,
    }),
}

/** Adds a batch to the session; the Batch view runs it. */
export function recordBatch(queryClient: QueryClient, batch: BatchSpec): void {
  queryClient.setQueryData<BatchSpec[]>(accessKeys.batches(), (list = []) => [batch, ...list])
}
