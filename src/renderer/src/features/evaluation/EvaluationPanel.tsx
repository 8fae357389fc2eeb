import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { GoldenSetSummary } from '#shared/model/evaluation'
import { call } from '../../api'
import { plural } from '../../lib/format'
import {
  useEvaluationRun,
  useEvaluationRunSelected,
  useEvaluationSet,
  useEvaluationSetSelected,
  useEvaluationTab,
  useEvaluationTabSelected,
  type EvaluationTab,
} from '../../state/store'
import { Badge, Banner, Button, EmptyState, Select, Spinner, TabPanel, Tabs } from '../../ui'
import { appQueries } from '../app/queries'
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
import { useEvalAction } from './use-eval-action'
import './EvaluationPanel.css'

/**
 * Retrieval evaluation: golden sets (queries with graded judgments), runs of a set across
 * servers and profiles with their metrics and charts, and the comparison of two runs.
 */
export function EvaluationPanel(): React.JSX.Element {
  const sets = useQuery(evalQueries.sets())
  const info = useQuery(appQueries.info())
  // The demo set's documents are those of the embedded registry's servers: offered there only.
  const demoOffered =
    info.data?.registry.kind === 'embedded' && !sets.data?.some((s) => s.id === 'demo')
  const chosen = useEvaluationSet()
  const selectSet = useEvaluationSetSelected()
  const tab = useEvaluationTab()
  const selectTab = useEvaluationTabSelected()
  const [creating, setCreating] = useState(false)
  const { busy, act } = useEvalAction()
  const set = sets.data?.find((s) => s.id === chosen) ?? sets.data?.[0]
  const { runs } = useRunsOfSet(set?.id)
  const running = runs?.find((run) => run.status === 'running')

  const addDemo = (): void =>
    void act('demo', 'Could not add the demo set.', async () => {
      const demo = await call('eval:set:add-demo')
      selectSet(demo.id)
    })

  const tabs: readonly { id: EvaluationTab; label: string; extra?: React.ReactNode }[] = [
    { id: 'sets', label: 'Golden sets' },
    {
      id: 'runs',
      label: 'Runs',
      extra: running ? (
        <Badge tone="info">running</Badge>
      ) : runs?.length ? (
        <Badge>{runs.length}</Badge>
      ) : null,
    },
    { id: 'compare', label: 'Compare' },
    { id: 'pool', label: 'Judge pool' },
  ]
  const views: Record<EvaluationTab, (set: GoldenSetSummary) => React.ReactNode> = {
    sets: (s) => (
      <div className="eval-sets-tab">
        <SetList
          sets={sets.data ?? []}
          selected={s.id}
          onSelect={selectSet}
          onNew={() => setCreating(true)}
          onAddDemo={demoOffered ? addDemo : undefined}
          addingDemo={busy === 'demo'}
        />
        <SetEditorLoader id={s.id} onDeleted={() => selectSet(null)} />
      </div>
    ),
    runs: (s) => <RunsView set={s} />,
    compare: () => <CompareRuns runs={runs ?? []} />,
    pool: (s) => <PoolJudging set={s} runs={runs ?? []} />,
  }

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
            onChange={selectSet}
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
        <EmptyState
          icon="evaluation"
          title="No golden set yet"
          action={
            <>
              <Button icon="plus" onClick={() => setCreating(true)}>
                New set
              </Button>
              {demoOffered && (
                <Button busy={busy === 'demo'} onClick={addDemo}>
                  Add the demo set
                </Button>
              )}
            </>
          }
        >
          A golden set holds queries and which documents are relevant to each. Judge hits in Search
          (“Judge into”), create one here or import it from a golden set or TREC qrels file, or add
          the demo set.
        </EmptyState>
      ) : (
        <>
          <Tabs label="Evaluation" idBase="eval" tabs={tabs} selected={tab} onSelect={selectTab} />
          {tabs.map(({ id }) => (
            <TabPanel
              key={id}
              idBase="eval"
              id={id}
              selected={tab === id}
              className="evaluation__tab"
            >
              {views[id](set)}
            </TabPanel>
          ))}
        </>
      )}
      <NewSetDialog open={creating} onClose={() => setCreating(false)} onCreated={selectSet} />
    </div>
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
