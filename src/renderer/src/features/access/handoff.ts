import type { QueryClient } from '@tanstack/react-query'
import type { StoreApi } from 'zustand'
import type { AccessTargetInput } from '#shared/ipc/rag'
import type { UiState } from '../../state/store'
import { recordBatch, type BatchSpec } from './queries'

/** What the Access panel took from other panels. */
export interface TakenHandoff {
  /** One target to load into the form and check. */
  single?: { target: AccessTargetInput; label?: string }
  /** A batch, already added to the session's batches. */
  batch?: BatchSpec
}

let batchCounter = 0

/** A batch id unique in this window (progress events are matched by it). */
export function newBatchId(now: number): string {
  batchCounter += 1
  return `batch-${now.toString(36)}-${batchCounter}`
}

/**
 * Takes whatever other panels handed to Access: records a batch in the session (the Batch
 * view runs it) and clears the handoff, so it is taken exactly once. Returns null when there
 * is nothing to take.
 */
export function takeAccessHandoff(
  store: Pick<StoreApi<UiState>, 'getState'>,
  queryClient: QueryClient,
  now: number,
): TakenHandoff | null {
  const { accessHandoff, checkAllHandoff, accessHandoffTaken } = store.getState()
  if (!accessHandoff && !checkAllHandoff) return null
  accessHandoffTaken()
  const taken: TakenHandoff = {}
  if (accessHandoff) taken.single = accessHandoff
  if (checkAllHandoff) {
    taken.batch = {
      batchId: newBatchId(now),
      label: checkAllHandoff.label,
      targets: checkAllHandoff.targets,
      startedAt: now,
    }
    recordBatch(queryClient, taken.batch)
  }
  return taken
}
