import { useMemo } from 'react'
import type { MergedHit } from '#shared/model/operations'
import { useCheckAllRequested } from '../../state/store'
import { overlapIndex, overlapTotals } from './overlap'
import type { SearchRun } from './search-run'
import { citationCheck, ownRanks } from './search-results'

/** What {@link useSearchResults} works out and does. */
export type SearchResultsData = ReturnType<typeof useSearchResults>

/**
 * What the results area works out from a run once per answer, not per render: which providers
 * returned each document, every hit, each hit's own rank, the hits answers may cite; and Check
 * all citations, which hands the merged hits to the Access panel.
 */
export function useSearchResults(run: SearchRun | null, merged: readonly MergedHit[] | undefined) {
  const checkAllRequested = useCheckAllRequested()
  const servers = useMemo(() => run?.servers ?? [], [run?.servers])
  const overlap = useMemo(() => overlapIndex(servers), [servers])
  const allHits = useMemo(() => servers.flatMap((s) => s.hits), [servers])
  // Each hit's rank in its own server's list, looked up per visible row.
  const ownRank = useMemo(() => ownRanks(servers), [servers])
  const answerHits = useMemo(() => [...(merged ?? []), ...allHits], [merged, allHits])
  return {
    servers,
    overlap,
    totals: overlapTotals(overlap),
    answered: servers.length,
    allHits,
    ownRank,
    answerHits,
    checkAll: (): void => {
      if (!merged) return
      const { targets, label } = citationCheck(merged, run?.draft.query ?? '')
      checkAllRequested(targets, label)
    },
  }
}
