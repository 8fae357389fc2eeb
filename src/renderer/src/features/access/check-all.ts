import type { AccessTargetInput } from '#shared/ipc/rag'
import type { AccessCheck, LinkVerdict } from '#shared/model/rag'
import { plural } from '../../lib/format'
import type { BatchSpec } from './queries'

/**
 * A batch's table worked out from its checks: the rows (as they arrive, then in target order),
 * the verdict filter, the counts line, and the batch that checks the same citations again.
 */

/** A row of the verdicts table. */
export interface BatchRow {
  /** 1-based position. */
  n: number
  check: AccessCheck
  /** Known once the batch is done (results come in target order). */
  target?: AccessTargetInput
}

/**
 * The batch's rows: once done, its results each beside the target it was asked for; while it
 * runs, the checks in the order they finished (no target yet).
 */
export function batchRows(
  done: readonly AccessCheck[] | undefined,
  arrived: readonly AccessCheck[],
  targets: readonly AccessTargetInput[],
): BatchRow[] {
  if (!done) return arrived.map((check, index) => ({ n: index + 1, check }))
  return done.map((check, index) => {
    const row: BatchRow = { n: index + 1, check }
    const target = targets[index]
    if (target) row.target = target
    return row
  })
}

/** The verdict filter with one class turned on, or off when it was on (a new set). */
export function toggledVerdict(
  verdicts: ReadonlySet<LinkVerdict>,
  verdict: LinkVerdict,
): Set<LinkVerdict> {
  const next = new Set(verdicts)
  if (!next.delete(verdict)) next.add(verdict)
  return next
}

/** "12 verdicts", or "3 of 12 verdicts" while a filter hides some. */
export function shownLine(shown: number, total: number): string {
  return shown === total ? plural(total, 'verdict') : `${shown} of ${total} verdicts`
}

/** The "Has access" cell: the server's yes or no, or a dash when it was not asked or cannot say. */
export function hasAccessCell(check: AccessCheck): 'yes' | 'no' | '—' {
  const access = check.access
  if (!access?.checked || access.hasAccess === null) return '—'
  return access.hasAccess ? 'yes' : 'no'
}

/** The same citations as a new batch, checked as another profile. */
export function recheckedBatch(
  batch: BatchSpec,
  profileId: string,
  batchId: string,
  now: number,
): BatchSpec {
  return { ...batch, batchId, startedAt: now, profileId }
}
