import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api'
import {
  useEvaluationSet,
  useEvaluationSetSelected,
  useEvaluationTab,
  useEvaluationTabSelected,
} from '../../state/store'
import { appQueries } from '../app/queries'
import { offersDemo, runsBadge, shownSet } from './evaluation-panel'
import { evalQueries, useRunsOfSet } from './queries'
import { useEvalAction } from './use-eval-action'

/**
 * What the Evaluation panel reads and does: the golden sets and the one shown, its runs, the
 * tab, the New set dialog, and adding the demo set.
 */
export function useEvaluationPanel() {
  const sets = useQuery(evalQueries.sets())
  const info = useQuery(appQueries.info())
  const chosen = useEvaluationSet()
  const selectSet = useEvaluationSetSelected()
  const tab = useEvaluationTab()
  const selectTab = useEvaluationTabSelected()
  const [creating, setCreating] = useState(false)
  const { busy, act } = useEvalAction()
  const set = shownSet(sets.data, chosen)
  const { runs } = useRunsOfSet(set?.id)
  const demoOffered = offersDemo(info.data?.registry, sets.data)

  const addDemo = (): void =>
    void act('demo', 'Could not add the demo set.', async () => {
      const demo = await call('eval:set:add-demo')
      selectSet(demo.id)
    })

  return {
    sets,
    set,
    selectSet,
    runs,
    runsBadge: runsBadge(runs),
    tab,
    selectTab,
    creating,
    setCreating,
    /** Adds the demo set; undefined where it is not offered. */
    addDemo: demoOffered ? addDemo : undefined,
    addingDemo: busy === 'demo',
  }
}

export type EvaluationPanelState = ReturnType<typeof useEvaluationPanel>
