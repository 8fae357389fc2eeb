import type { AccessTargetInput } from '#shared/ipc/rag'
import type { MergedHit, ServerSearchResult } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { plural } from '../../lib/format'
import type { SearchView } from '../../state/store'
import { hitTarget } from './access-targets'
import type { SearchRun } from './search-run'
import { formatMs } from './waterfall'

/**
 * The results area's words and numbers, worked out from the run: each tab's label and count, the
 * status line, each hit's rank in its own server's list, and what Check all citations sends.
 */

export const VIEW_LABELS: Record<SearchView, string> = {
  merged: 'Merged',
  providers: 'By provider',
  all: 'All hits',
  answers: 'Answers',
}

/** The count on each tab that has one: merged hits (once merged), servers answered, all hits. */
export function tabCounts(
  merged: readonly MergedHit[] | undefined,
  answered: number,
  all: number,
): Partial<Record<SearchView, number>> {
  return {
    ...(merged ? { merged: merged.length } : {}),
    ...(answered ? { providers: answered } : {}),
    ...(all ? { all } : {}),
  }
}

/** How many servers the run waits for: those expected, or more when more answered. */
export const expectedCount = (run: SearchRun | null, answered: number): number =>
  Math.max(answered, run?.expected.length ?? 0)

/**
 * The status line: the merged count, time and acting user once the search is done (servers
 * answered so far until then), and whether providers returned the same documents.
 */
export function summaryLine(
  run: SearchRun,
  mergedCount: number,
  answered: number,
  totals: { documents: number; shared: number },
): string {
  const progress = run.result
    ? `${plural(mergedCount, 'merged hit')} in ${formatMs(run.result.elapsedMs)} as ${run.result.user.userId}`
    : `${answered} of ${expectedCount(run, answered)} servers answered`
  if (answered <= 1 || totals.documents === 0) return progress
  return totals.shared > 0
    ? `${progress} · ${plural(totals.shared, 'document')} returned by more than one provider`
    : `${progress} · no document returned by more than one provider`
}

/** Each hit's rank in its own server's list (1 first). */
export function ownRanks(servers: readonly ServerSearchResult[]): Map<Hit, number> {
  const ranks = new Map<Hit, number>()
  for (const s of servers) s.hits.forEach((hit, index) => ranks.set(hit, index + 1))
  return ranks
}

/** The most merged hits Check all citations hands to the Access panel. */
export const CHECK_ALL_LIMIT = 1000

/** What Check all citations hands to the Access panel: the first merged hits, and a label. */
export function citationCheck(
  merged: readonly MergedHit[],
  query: string,
): { targets: AccessTargetInput[]; label: string } {
  return {
    targets: merged.slice(0, CHECK_ALL_LIMIT).map(hitTarget),
    label: `${plural(merged.length, 'hit')} for “${query}”`,
  }
}
