import { useQuery } from '@tanstack/react-query'
import type { GoldenSetSummary } from '#shared/model/evaluation'
import { plural } from '../../lib/format'
import { useEvaluationRun, useEvaluationRunSelected, type EvaluationTab } from '../../state/store'
import { Badge, Banner, Button, EmptyState, Select, Spinner, TabPanel, Tabs } from '../../ui'
import { profileQueries } from '../profiles/queries'
import { CompareRuns } from './CompareRuns'
import { NewSetDialog } from './NewSetDialog'
import { PoolJudging } from './PoolJudging'
import { evalQueries, useRunsOfSet } from './queries'
import { RunHistory } from './RunHistory'
import { RunLauncher } from './RunLauncher'
import { RunMetrics } from './RunMetrics'
import { SetEditor } from './SetEditor'
import { SetList } from './SetList'
import { useEvaluationPanel, type EvaluationPanelState } from './use-evaluation-panel'
import './EvaluationPanel.css'

/**
 * Retrieval evaluation: golden sets (queries with graded judgments), runs of a set across
 * servers and profiles with their metrics and charts, and the comparison of two runs.
 */
export function EvaluationPanel(): React.JSX.Element {
  const panel = useEvaluationPanel()
  const { sets, set } = panel
  return (
    <div className="evaluation">
      <div className="evaluation__head">
        <h1 tabIndex={-1}>Evaluation</h1>
        {set && (
          <Select
            label="Set"
            inline
            value={set.id}
            options={(sets.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            onChange={panel.selectSet}
            fieldClassName="evaluation__set"
          />
        )}
        {set && (
          <span className="muted">
            {plural(set.queryCount, 'query', 'queries')} · {plural(set.judgmentCount, 'judgment')}
          </span>
        )}
      </div>
      {sets.isPending ? (
        <Spinner label="Loading the golden sets…" />
      ) : sets.isError ? (
        <Banner tone="bad" title="Cannot read the golden sets">
          {sets.error.message}
        </Banner>
      ) : !set ? (
        <NoSetYet panel={panel} />
      ) : (
        <EvaluationTabs set={set} panel={panel} />
      )}
      <NewSetDialog
        open={panel.creating}
        onClose={() => panel.setCreating(false)}
        onCreated={panel.selectSet}
      />
    </div>
  )
}

/** No golden set: what one is, and how to make one. */
function NoSetYet({ panel }: { panel: EvaluationPanelState }): React.JSX.Element {
  return (
    <EmptyState
      icon="evaluation"
      title="No golden set yet"
      action={
        <>
          <Button icon="plus" onClick={() => panel.setCreating(true)}>
            New set
          </Button>
          {panel.addDemo && (
            <Button busy={panel.addingDemo} onClick={panel.addDemo}>
              Add the demo set
            </Button>
          )}
        </>
      }
    >
      A golden set holds queries and which documents are relevant to each. Judge hits in Search
      (“Judge into”), create one here or import it from a golden set or TREC qrels file, or add the
      demo set.
    </EmptyState>
  )
}

/** The set's tabs: the sets and its editor, its runs, two runs compared, its pool to judge. */
function EvaluationTabs({
  set,
  panel,
}: {
  set: GoldenSetSummary
  panel: EvaluationPanelState
}): React.JSX.Element {
  const { runs, selectSet, runsBadge } = panel
  const tabs: readonly { id: EvaluationTab; label: string; extra?: React.ReactNode }[] = [
    { id: 'sets', label: 'Golden sets' },
    {
      id: 'runs',
      label: 'Runs',
      extra: runsBadge && <Badge tone={runsBadge.tone}>{runsBadge.text}</Badge>,
    },
    { id: 'compare', label: 'Compare' },
    { id: 'pool', label: 'Judge pool' },
  ]
  const views: Record<EvaluationTab, () => React.ReactNode> = {
    sets: () => (
      <div className="eval-sets-tab">
        <SetList
          sets={panel.sets.data ?? []}
          selected={set.id}
          onSelect={selectSet}
          onNew={() => panel.setCreating(true)}
          onAddDemo={panel.addDemo}
          addingDemo={panel.addingDemo}
        />
        <SetEditorLoader id={set.id} onDeleted={() => selectSet(null)} />
      </div>
    ),
    runs: () => <RunsView set={set} />,
    compare: () => <CompareRuns runs={runs ?? []} />,
    pool: () => <PoolJudging set={set} runs={runs ?? []} />,
  }
  return (
    <>
      <Tabs
        label="Evaluation"
        idBase="eval"
        tabs={tabs}
        selected={panel.tab}
        onSelect={panel.selectTab}
      />
      {tabs.map(({ id }) => (
        <TabPanel
          key={id}
          idBase="eval"
          id={id}
          selected={panel.tab === id}
          className="evaluation__tab"
        >
          {views[id]()}
        </TabPanel>
      ))}
    </>
  )
}

function SetEditorLoader({ id, onDeleted }: { id: string; onDeleted: () => void }) {
  const set = useQuery(evalQueries.set(id))
  const profiles = useQuery(profileQueries.list())
  if (set.isPending) return <Spinner label="Loading the set…" />
  if (set.isError) {
    return (
      <Banner tone="bad" title="Cannot read this set">
        {set.error.message}
      </Banner>
    )
  }
  return (
    <SetEditor
      key={id}
      set={set.data}
      profiles={profiles.data?.profiles ?? []}
      onDeleted={onDeleted}
    />
  )
}

function RunsView({ set }: { set: GoldenSetSummary }): React.JSX.Element {
  const { runs } = useRunsOfSet(set.id)
  const chosen = useEvaluationRun()
  const selectRun = useEvaluationRunSelected()
  const run = runs?.find((r) => r.id === chosen) ?? runs?.[0]
  return (
    <div className="eval-runs">
      <RunLauncher set={set} running={runs?.find((r) => r.status === 'running')} />
      <RunHistory runs={runs ?? []} selected={run?.id} onSelect={selectRun} />
      {run && <RunMetrics key={run.id} run={run} />}
    </div>
  )
}
