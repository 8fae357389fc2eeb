import { useEvaluationTab, useEvaluationTabSelected, type EvaluationTab } from '../../state/store'
import { EmptyState, TabPanel, Tabs } from '../../ui'
import './EvaluationPanel.css'

const TABS: readonly { id: EvaluationTab; label: string }[] = [
  { id: 'sets', label: 'Golden sets' },
  { id: 'runs', label: 'Runs' },
  { id: 'compare', label: 'Compare' },
]

/**
 * Retrieval evaluation: golden sets (queries with graded judgments), runs of a set across
 * servers and profiles with their metrics and charts, and the comparison of two runs.
 */
export function EvaluationPanel(): React.JSX.Element {
  const tab = useEvaluationTab()
  const selectTab = useEvaluationTabSelected()
  return (
    <div className="evaluation">
      <div className="evaluation__head">
        <h1 tabIndex={-1}>Evaluation</h1>
      </div>
      <Tabs label="Evaluation" idBase="eval" tabs={TABS} selected={tab} onSelect={selectTab} />
      {TABS.map(({ id }) => (
        <TabPanel key={id} idBase="eval" id={id} selected={tab === id} className="evaluation__tab">
          <EmptyState icon="evaluation" title="Nothing here yet" />
        </TabPanel>
      ))}
    </div>
  )
}
