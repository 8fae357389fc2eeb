import { JudgeSetPicker } from '../evaluation/JudgeSetPicker'
import { NewSetDialog } from '../evaluation/NewSetDialog'
import { hitKey } from './hit-key'
import { HitInspector } from './HitInspector'
import { LatencyWaterfall } from './LatencyWaterfall'
import { QueryForm } from './QueryForm'
import { SearchResults } from './SearchResults'
import { SourcesSummary } from './SourcesSummary'
import { useSearchPanel } from './use-search-panel'
import './SearchPanel.css'

/**
 * One query across the selected providers: per-server results as they arrive (latency
 * waterfall, columns side by side), the merged list, the hit inspector and the answers.
 */
export function SearchPanel(): React.JSX.Element {
  const panel = useSearchPanel()
  const { draft, run, selected, discovery } = panel
  return (
    <div className="search-panel">
      <div className="search-panel__head">
        <h1 tabIndex={-1}>Search</h1>
        <QueryForm
          draft={draft}
          onChange={panel.setDraft}
          running={panel.running}
          cancelling={run?.cancelling ?? false}
          disabledReason={panel.disabledReason}
          onRun={panel.runSearch}
          onCancel={panel.cancel}
          judging={<JudgeSetPicker onNew={() => panel.setCreatingSet(true)} />}
          sources={
            <SourcesSummary
              servers={panel.servers}
              loading={discovery.isPending}
              error={discovery.isError ? discovery.error.message : undefined}
              excluded={panel.excluded}
              onExcludedChange={panel.setExcluded}
            />
          }
        />
      </div>
      {/* Escape closes the inspector wherever focus is: in it or in the list beside it. */}
      <div className="search-panel__body" onKeyDown={panel.onBodyKeyDown}>
        <div className="search-panel__main">
          {run && run.expected.length + run.servers.length > 0 && <LatencyWaterfall run={run} />}
          <SearchResults
            run={run}
            merged={panel.merged}
            fusion={draft.fusion}
            view={panel.view}
            onViewChange={panel.setView}
            selectedKey={panel.inspected}
            onSelect={panel.setSelected}
            query={draft.query}
            topK={draft.topK}
            selection={panel.selection}
            judging={panel.judging}
          />
        </div>
        {selected && run && (
          <HitInspector
            key={hitKey(selected)}
            searchId={run.searchId}
            hit={selected}
            replyViolations={panel.replyViolations}
            replyArtifacts={panel.replyArtifacts}
            onClose={() => panel.setSelected(null)}
            judging={panel.judging}
          />
        )}
      </div>
      <NewSetDialog
        open={panel.creatingSet}
        onClose={() => panel.setCreatingSet(false)}
        onCreated={panel.judgeInto}
      />
    </div>
  )
}
