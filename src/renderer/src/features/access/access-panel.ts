import type { AccessTargetInput } from '#shared/ipc/rag'
import type { AccessCheck } from '#shared/model/rag'
import { formatTime } from '../../lib/format'
import type { BatchSpec, HistoryEntry } from './queries'
import { targetParts } from './verdicts'

/**
 * The Access panel's choices, worked out from what it holds: which check the verdict card
 * shows, which batch is open, and the request a check sends.
 */

/** The panel's tabs. */
export type AccessView = 'check' | 'batches' | 'policy'

/** The check the verdict card shows: from the history (`id`) or opened from a batch. */
export interface Shown {
  id?: number | undefined
  target: AccessTargetInput
  check: AccessCheck
  profileId?: string | undefined
}

/** A check to run: the target, whether to bypass the cache, whom to check as. */
export interface CheckRequest {
  target: AccessTargetInput
  refresh?: boolean
  /** Absent: the active (“View as”) profile. */
  profileId?: string | undefined
}

/** The `access:check` request: the profile only when one was chosen. */
export function accessCheckRequest({ target, refresh, profileId }: CheckRequest) {
  return { target, refresh, ...(profileId ? { profileId } : {}) }
}

/** The card shows the check picked (or just run), else the newest of the history, else none. */
export function shownCheck(picked: Shown | null, history: readonly HistoryEntry[]): Shown | null {
  return picked ?? history[0] ?? null
}

/**
 * A verdict opened from a batch: the target it was asked for, else (while the batch runs,
 * before targets and results are matched) the server, segment and link the check names.
 */
export function shownFromBatch(
  check: AccessCheck,
  target: AccessTargetInput | undefined,
  profileId: string | undefined,
): Shown {
  return { target: target ?? { ...targetParts(check) }, check, profileId }
}

/** The batch picked, else the newest (a new batch clears the pick). */
export function currentBatch(
  batches: readonly BatchSpec[],
  batchId: string | null,
): BatchSpec | undefined {
  return batches.find((b) => b.batchId === batchId) ?? batches[0]
}

/** A batch in the batch picker: when it started and what it checks. */
export function batchOption(batch: BatchSpec): { value: string; label: string } {
  return { value: batch.batchId, label: `${formatTime(batch.startedAt)} · ${batch.label}` }
}
