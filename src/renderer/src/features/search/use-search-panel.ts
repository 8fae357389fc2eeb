import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useRef, useState } from 'react'
import type { Hit } from '#shared/model/rag'
import {
  useJudgingSetSelected,
  useSearchDraft,
  useSearchDraftChanged,
  useSearchExcluded,
  useSearchExcludedChanged,
  useSearchHitInspected,
  useSearchInspected,
  useSearchView,
  useSearchViewSelected,
} from '../../state/store'
import { useJudging } from '../evaluation/use-judging'
import { profileQueries } from '../profiles/queries'
import { hitKey } from './hit-key'
import { searchQueries } from './queries'
import {
  inspectedHit,
  replyOf,
  replyViolations,
  runBlockedReason,
  takingPart,
} from './search-panel'
import { mergedHits, type SearchDraft } from './search-run'
import { searchSelection, serverSources, type ServerSources } from './sources'
import { useSearch } from './use-search'

/** The hit lists a closing inspector hands focus back to: those of the tab shown. */
const SHOWN_LISTS = '.search-results__view:not([hidden]) [role="listbox"]'

/**
 * What the Search panel reads and does: the draft and the sources it runs on, the run (its
 * progress arrives as events, see {@link useSearch}) and its merged list, the inspected hit,
 * judging, and the new-set dialog.
 */
export function useSearchPanel() {
  const profiles = useQuery(profileQueries.list())
  const discovery = useQuery(searchQueries.discovery(profiles.data?.activeId))
  const toggles = useQuery(profileQueries.selection())
  const draft = useSearchDraft()
  const setDraft = useSearchDraftChanged()
  const view = useSearchView()
  const setView = useSearchViewSelected()
  const setExcluded = useSearchExcludedChanged()
  const excludedList = useSearchExcluded()
  const excluded = useMemo(() => new Set(excludedList), [excludedList])
  const { run, start, cancel } = useSearch()
  const inspected = useSearchInspected()
  const inspect = useSearchHitInspected()
  const setSelected = useCallback((hit: Hit | null) => inspect(hit && hitKey(hit)), [inspect])
  // Merging is client-side too: a new fusion re-sorts the results at hand.
  const merged = useMemo(() => mergedHits(run, draft.fusion), [run, draft.fusion])
  const selected = useMemo(() => inspectedHit(inspected, run, merged), [inspected, run, merged])
  const reply = useMemo(() => replyOf(run, selected), [run, selected])
  const violations = useMemo(() => replyViolations(reply), [reply])

  const servers = useMemo(
    () => serverSources(discovery.data, toggles.data),
    [discovery.data, toggles.data],
  )
  const selection = useMemo(() => searchSelection(servers, excluded), [servers, excluded])
  const taking = takingPart(servers, excluded)

  // Run pressed before the sources are known is held until they are: started at once, the run
  // would list no server as waiting, and would run even when no source turns out selected.
  const queryClient = useQueryClient()
  const [held, setHeld] = useState(false)
  const holding = useRef(0)
  /** Runs on `on`, the servers found; none known when discovery failed (main asks them all). */
  const startRun = (asked: SearchDraft, on: readonly ServerSources[] | undefined): void => {
    const part = takingPart(on ?? [], excluded)
    if (on && runBlockedReason(true, part)) return
    setSelected(null)
    start(asked, searchSelection(on ?? [], excluded), part)
  }
  const runWhenFound = async (asked: SearchDraft): Promise<void> => {
    const ticket = ++holding.current
    setHeld(true)
    const found = await sourcesOnceFound(queryClient)
    if (ticket !== holding.current) return
    setHeld(false)
    startRun(asked, found)
  }

  // Hits are judged for the query that found them, not for what the form holds now.
  const judging = useJudging(run?.draft.query, profiles.data?.activeId)
  const judgeInto = useJudgingSetSelected()
  const [creatingSet, setCreatingSet] = useState(false)
  return {
    draft,
    setDraft,
    view,
    setView,
    discovery,
    servers,
    excluded,
    setExcluded: (next: ReadonlySet<string>): void => setExcluded([...next]),
    selection,
    disabledReason: runBlockedReason(discovery.isSuccess, taking),
    run,
    running: run?.phase === 'running' || held,
    merged,
    inspected,
    selected,
    replyViolations: violations,
    replyArtifacts: reply?.artifacts,
    setSelected,
    runSearch: (): void => {
      if (discovery.isPending) void runWhenFound(draft)
      else startRun(draft, discovery.isSuccess ? servers : undefined)
    },
    cancel: (): void => {
      holding.current++
      setHeld(false)
      cancel()
    },
    judging,
    creatingSet,
    setCreatingSet,
    judgeInto,
    /** Escape closes the inspector wherever focus is: in it or in the list beside it. */
    onBodyKeyDown: (event: React.KeyboardEvent<HTMLElement>): void => {
      if (event.key !== 'Escape' || event.defaultPrevented || !selected) return
      event.preventDefault()
      // Focus inside the inspector would go with it: back to the list that shows the hit.
      if (event.target instanceof Element && event.target.closest('.inspector')) {
        const body = event.currentTarget
        const list =
          body.querySelector<HTMLElement>(`${SHOWN_LISTS}:has([aria-selected="true"])`) ??
          body.querySelector<HTMLElement>(SHOWN_LISTS)
        list?.focus()
      }
      setSelected(null)
    },
  }
}

/**
 * The servers and their selected sources once discovery has answered (at once when it has);
 * undefined when it failed.
 */
async function sourcesOnceFound(queryClient: QueryClient): Promise<ServerSources[] | undefined> {
  try {
    const { activeId } = await queryClient.ensureQueryData(profileQueries.list())
    const [discovered, toggles] = await Promise.all([
      queryClient.ensureQueryData(searchQueries.discovery(activeId)),
      queryClient.ensureQueryData(profileQueries.selection()),
    ])
    return serverSources(discovered, toggles)
  } catch {
    return undefined
  }
}
