import type { FusionMode, MergedHit, Selection } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { SEARCH_VIEWS, type SearchView } from '../../state/store'
import { Badge, Banner, Button, EmptyState, Spinner, TabPanel, Tabs } from '../../ui'
import { AnswersView } from '../answers/AnswersView'
import type { Judging } from '../evaluation/use-judging'
import { HitList } from './HitList'
import { ProviderColumns } from './ProviderColumns'
import { fusedColumn } from './score-columns'
import type { SearchRun } from './search-run'
import { expectedCount, summaryLine, tabCounts, VIEW_LABELS } from './search-results'
import { useSearchResults, type SearchResultsData } from './use-search-results'

export const RESULT_VIEWS = SEARCH_VIEWS
export type ResultView = SearchView

export interface SearchResultsProps {
  run: SearchRun | null
  /** The merged list in the fusion chosen now (undefined until the search resolves). */
  merged: readonly MergedHit[] | undefined
  /** The fusion that ranked `merged`. */
  fusion: FusionMode
  view: ResultView
  onViewChange: (view: ResultView) => void
  selectedKey: string | null
  onSelect: (hit: Hit) => void
  /** The query and sources answers use when no search ran yet. */
  query: string
  topK: number
  selection: Selection | undefined
  /** Judging into a golden set (from the toolbar), or null. */
  judging: Judging | null
}

/** The merged list, the providers side by side, every hit, and the answers. */
export function SearchResults({
  run,
  merged,
  fusion,
  view,
  onViewChange,
  selectedKey,
  onSelect,
  query,
  topK,
  selection,
  judging,
}: SearchResultsProps): React.JSX.Element {
  const results = useSearchResults(run, merged)
  const { servers, overlap, allHits, answered } = results

  const shared = { overlap, selectedKey, onSelect, judging }
  const content: Record<ResultView, () => React.ReactNode> = {
    merged: () =>
      merged ? (
        <HitList
          label="Merged hits"
          hits={merged}
          {...shared}
          rankOf={(hit) => ('rank' in hit ? (hit.rank as number) : 0)}
          score={fusedColumn(fusion)}
          empty={<EmptyState icon="search" title="No server returned a hit" />}
        />
      ) : (
        <MergedPending run={run} answered={answered} />
      ),
    providers: () => <ProviderColumns servers={servers} {...shared} />,
    all: () => (
      <HitList
        label="All hits"
        hits={allHits}
        {...shared}
        rankOf={(hit) => results.ownRank.get(hit) ?? 0}
        empty={<EmptyState icon="search" title="No hits yet" />}
      />
    ),
    answers: () => (
      <AnswersView
        query={run?.draft.query ?? query}
        topK={run?.draft.topK ?? topK}
        selection={selection}
        hits={results.answerHits}
        onOpenHit={onSelect}
      />
    ),
  }

  return (
    <div className="search-results">
      <ResultsBar
        run={run}
        merged={merged}
        view={view}
        onViewChange={onViewChange}
        results={results}
      />
      {run?.phase === 'failed' && (
        <Banner tone="bad" title="The search failed">
          {run.error}
        </Banner>
      )}
      {RESULT_VIEWS.map((id) => (
        <TabPanel
          key={id}
          idBase="search-results"
          id={id}
          selected={view === id}
          // Answers survive switching tabs.
          keepMounted={id === 'answers'}
          className={`search-results__view search-results__view--${id}`}
        >
          {content[id]()}
        </TabPanel>
      ))}
    </div>
  )
}

/** The tabs with their counts, how far the search has come, and Check all citations. */
function ResultsBar({
  run,
  merged,
  view,
  onViewChange,
  results,
}: Pick<SearchResultsProps, 'run' | 'merged' | 'view' | 'onViewChange'> & {
  results: SearchResultsData
}): React.JSX.Element {
  const counts = tabCounts(merged, results.answered, results.allHits.length)
  return (
    <div className="search-results__bar">
      <Tabs
        label="Results"
        idBase="search-results"
        selected={view}
        onSelect={onViewChange}
        tabs={RESULT_VIEWS.map((id) => ({
          id,
          label: VIEW_LABELS[id],
          extra: counts[id] === undefined ? null : <Badge>{counts[id]}</Badge>,
        }))}
        className="search-results__tabs"
      />
      {run && (
        <span className="search-results__summary muted" role="status">
          {summaryLine(run, merged?.length ?? 0, results.answered, results.totals)}
          {run.result?.cancelled && (
            <Badge tone="warn" className="search-results__cancelled">
              cancelled
            </Badge>
          )}
        </span>
      )}
      {view !== 'answers' && (
        <Button
          icon="access"
          disabled={!merged || merged.length === 0}
          title="Check that each merged hit still opens for the acting user, on the Access panel"
          onClick={results.checkAll}
        >
          Check all citations
        </Button>
      )}
    </div>
  )
}

/** The merged tab before there is a merged list: waiting for the servers, or no search yet. */
function MergedPending({
  run,
  answered,
}: {
  run: SearchRun | null
  answered: number
}): React.ReactNode {
  if (run?.phase === 'running') {
    return (
      <Spinner
        label={`Merging once every server has answered (${answered} of ${expectedCount(run, answered)})…`}
      />
    )
  }
  if (run?.phase === 'failed') return null
  return (
    <EmptyState icon="search" title="Run a search">
      One query goes to every selected server at once; their hits arrive per server and merge into
      one ranked list here.
    </EmptyState>
  )
}
