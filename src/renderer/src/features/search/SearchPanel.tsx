import { useQuery } from '@tanstack/react-query'
import { useCallback, useMemo, useState } from 'react'
import type { Hit } from '#shared/model/rag'
import {
  useSearchDraft,
  useSearchDraftChanged,
  useSearchExcluded,
  useSearchExcludedChanged,
  useSearchHitInspected,
  useJudgingSetSelected,
  useSearchInspected,
  useSearchView,
  useSearchViewSelected,
} from '../../state/store'
import { JudgeSetPicker } from '../evaluation/JudgeSetPicker'
import { NewSetDialog } from '../evaluation/NewSetDialog'
import { useJudging } from '../evaluation/use-judging'
import { profileQueries } from '../profiles/queries'
import { hitKey } from './hit-key'
import { HitInspector } from './HitInspector'
import { LatencyWaterfall } from './LatencyWaterfall'
import { QueryForm } from './QueryForm'
import { searchQueries } from './queries'
import { mergedHits } from './search-run'
import { SearchResults } from './SearchResults'
import { searchSelection, serverSources, takesPart } from './sources'
import { SourcesSummary } from './SourcesSummary'
import { useSearch } from './use-search'
import './SearchPanel.css'

/**
 * One query across the selected providers: per-server results as they arrive (latency
 * waterfall, columns side by side), the merged list, the hit inspector and the answers.
 */
export function SearchPanel(): React.JSX.Element {
  const profiles = useQuery(profileQueries.list())
  const discovery = useQuery(searchQueries.discovery(profiles.data?.activeId))
  const toggles = useQuery(profileQueries.selection())
  const draft = useSearchDraft()
  const setDraft = useSearchDraftChanged()
  const excludedList = useSearchExcluded()
  const setExcluded = useSearchExcludedChanged()
  const excluded = useMemo(() => new Set(excludedList), [excludedList])
  const view = useSearchView()
  const setView = useSearchViewSelected()
  const { run, start, cancel } = useSearch()
  const inspected = useSearchInspected()
  const inspect = useSearchHitInspected()
  const setSelected = useCallback((hit: Hit | null) => inspect(hit && hitKey(hit)), [inspect])
  // Merging is client-side too: a new fusion re-sorts the results at hand.
  const merged = useMemo(() => mergedHits(run, draft.fusion), [run, draft.fusion])
  // The merged hit (with where it was found) when there is one, else a server's own.
  const selected = useMemo(() => {
    if (!inspected || !run) return null
    const lists = [merged ?? [], ...run.servers.map((s) => s.hits)]
    for (const hits of lists) {
      const hit = hits.find((h) => hitKey(h) === inspected)
      if (hit) return hit
    }
    return null
  }, [inspected, run, merged])

  const servers = useMemo(
    () => serverSources(discovery.data, toggles.data),
    [discovery.data, toggles.data],
  )
  const selection = useMemo(() => searchSelection(servers, excluded), [servers, excluded])
  const taking = servers.filter((s) => takesPart(s) && !excluded.has(s.server)).map((s) => s.server)
  const replyViolations = useMemo(() => {
    const result = selected && run?.servers.find((s) => s.server === selected.server)
    if (!result) return []
    const onHits = new Set(result.hits.flatMap((h) => h.violations.map((v) => v.path)))
    return result.violations.filter((v) => !onHits.has(v.path))
  }, [selected, run?.servers])

  // Hits are judged for the query that found them, not for what the form holds now.
  const [creatingSet, setCreatingSet] = useState(false)
  const judgeInto = useJudgingSetSelected()
  const judging = useJudging(run?.draft.query, profiles.data?.activeId)
  const running = run?.phase === 'running'
  return (
    <div className="search-panel">
      <div className="search-panel__head">
        <h1 tabIndex={-1}>Search</h1>
        <QueryForm
          draft={draft}
          onChange={setDraft}
          running={running}
          cancelling={run?.cancelling ?? false}
          disabledReason={
            discovery.isSuccess && taking.length === 0
              ? 'No source is selected: turn some on in Servers'
              : undefined
          }
          onRun={() => {
            setSelected(null)
            start(draft, selection, taking)
          }}
          onCancel={cancel}
          judging={<JudgeSetPicker onNew={() => setCreatingSet(true)} />}
          sources={
            <SourcesSummary
              servers={servers}
              loading={discovery.isPending}
              error={discovery.isError ? discovery.error.message : undefined}
              excluded={excluded}
              onExcludedChange={(next) => setExcluded([...next])}
            />
          }
        />
      </div>
      {/* Escape closes the inspector wherever focus is: in it or in the list beside it. */}
      <div
        className="search-panel__body"
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || event.defaultPrevented || !selected) return
          event.preventDefault()
          // Focus inside the inspector would go with it: back to the list that shows the hit.
          if (event.target instanceof Element && event.target.closest('.inspector')) {
            const lists = '.search-results__view:not([hidden]) [role="listbox"]'
            const body = event.currentTarget
            const list =
              body.querySelector<HTMLElement>(`${lists}:has([aria-selected="true"])`) ??
              body.querySelector<HTMLElement>(lists)
            list?.focus()
          }
          setSelected(null)
        }}
      >
        <div className="search-panel__main">
          {run && run.expected.length + run.servers.length > 0 && <LatencyWaterfall run={run} />}
          <SearchResults
            run={run}
            merged={merged}
            fusion={draft.fusion}
            view={view}
            onViewChange={setView}
            selectedKey={inspected}
            onSelect={setSelected}
            query={draft.query}
            topK={draft.topK}
            selection={selection}
            judging={judging}
          />
        </div>
        {selected && run && (
          <HitInspector
            key={hitKey(selected)}
            searchId={run.searchId}
            hit={selected}
            replyViolations={replyViolations}
            replyArtifacts={run?.servers.find((s) => s.server === selected.server)?.artifacts}
            onClose={() => setSelected(null)}
            judging={judging}
          />
        )}
      </div>
      <NewSetDialog
        open={creatingSet}
        onClose={() => setCreatingSet(false)}
        onCreated={judgeInto}
      />
    </div>
  )
}
