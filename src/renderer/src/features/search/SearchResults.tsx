import { useMemo } from 'react'
import type { FusionMode, MergedHit, Selection } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { plural } from '../../lib/format'
import { SEARCH_VIEWS, useCheckAllRequested, type SearchView } from '../../state/store'
import { Badge, Banner, Button, EmptyState, Spinner, TabPanel, Tabs } from '../../ui'
import { AnswersView } from '../answers/AnswersView'
import type { Judging } from '../evaluation/use-judging'
import { hitTarget } from './access-targets'
import { HitList } from './HitList'
import { overlapIndex, overlapTotals } from './overlap'
import { ProviderColumns } from './ProviderColumns'
import { fusedColumn } from './score-columns'
import type { SearchRun } from './search-run'
import { formatMs } from './waterfall'

export const RESULT_VIEWS = SEARCH_VIEWS
export type ResultView = SearchView

const LABELS: Record<ResultView, string> = {
  merged: 'Merged',
  providers: 'By provider',
  all: 'All hits',
  answers: 'Answers',
}

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
  const checkAllRequested = useCheckAllRequested()
  const servers = useMemo(() => run?.servers ?? [], [run?.servers])
  const overlap = useMemo(() => overlapIndex(servers), [servers])
  const allHits = useMemo(() => servers.flatMap((s) => s.hits), [servers])
  // Each hit's rank in its own server's list, looked up per visible row.
  const ownRank = useMemo(() => {
    const ranks = new Map<Hit, number>()
    for (const s of servers) s.hits.forEach((hit, index) => ranks.set(hit, index + 1))
    return ranks
  }, [servers])
  const answerHits = useMemo(() => [...(merged ?? []), ...allHits], [merged, allHits])
  const totals = overlapTotals(overlap)
  const answered = servers.length
  const expected = Math.max(answered, run?.expected.length ?? 0)

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
      ) : run?.phase === 'running' ? (
        <Spinner label={`Merging once every server has answered (${answered} of ${expected})…`} />
      ) : run?.phase === 'failed' ? null : (
        <EmptyState icon="search" title="Run a search">
          One query goes to every selected server at once; their hits arrive per server and merge
          into one ranked list here.
        </EmptyState>
      ),
    providers: () => <ProviderColumns servers={servers} {...shared} />,
    all: () => (
      <HitList
        label="All hits"
        hits={allHits}
        {...shared}
        rankOf={(hit) => ownRank.get(hit) ?? 0}
        empty={<EmptyState icon="search" title="No hits yet" />}
      />
    ),
    answers: () => (
      <AnswersView
        query={run?.draft.query ?? query}
        topK={run?.draft.topK ?? topK}
        selection={selection}
        hits={answerHits}
        onOpenHit={onSelect}
      />
    ),
  }

  const extra: Partial<Record<ResultView, React.ReactNode>> = {
    merged: merged ? <Badge>{merged.length}</Badge> : null,
    providers: answered ? <Badge>{answered}</Badge> : null,
    all: allHits.length ? <Badge>{allHits.length}</Badge> : null,
  }

  return (
    <div className="search-results">
      <div className="search-results__bar">
        <Tabs
          label="Results"
          idBase="search-results"
          selected={view}
          onSelect={onViewChange}
          tabs={RESULT_VIEWS.map((id) => ({ id, label: LABELS[id], extra: extra[id] }))}
          className="search-results__tabs"
        />
        {run && (
          <span className="search-results__summary muted" role="status">
            {run.result
              ? `${plural(merged?.length ?? 0, 'merged hit')} in ${formatMs(run.result.elapsedMs)} as ${run.result.user.userId}`
              : `${answered} of ${expected} servers answered`}
            {answered > 1 &&
              totals.documents > 0 &&
              (totals.shared > 0
                ? ` · ${plural(totals.shared, 'document')} returned by more than one provider`
                : ' · no document returned by more than one provider')}
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
            onClick={() =>
              merged &&
              checkAllRequested(
                merged.slice(0, 1000).map(hitTarget),
                `${plural(merged.length, 'hit')} for “${run?.draft.query ?? ''}”`,
              )
            }
          >
            Check all citations
          </Button>
        )}
      </div>
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
