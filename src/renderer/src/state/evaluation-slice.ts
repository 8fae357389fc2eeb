import type { StateCreator } from 'zustand'

export const EVALUATION_TABS = ['sets', 'runs', 'compare', 'pool'] as const
export type EvaluationTab = (typeof EVALUATION_TABS)[number]

/** What the Evaluation panel shows, and the golden set Search records judgments into. */
export interface EvaluationSlice {
  evaluationTab: EvaluationTab
  /** The set open in the editor (and launched by Run); null: the first one. */
  evaluationSet: string | null
  /** The run whose metrics are shown; null: the newest of the set. */
  evaluationRun: string | null
  /** The two runs compared: the baseline and the candidate. */
  evaluationCompare: { base: string | null; candidate: string | null }
  /** The runs whose pool is judged; null: the run whose metrics are shown. */
  evaluationPoolRuns: string[] | null
  /** The set judgments from Search go to; null: judging is off. */
  judgingSet: string | null
  evaluationTabSelected: (tab: EvaluationTab) => void
  evaluationSetSelected: (set: string | null) => void
  evaluationRunSelected: (run: string | null) => void
  evaluationCompareChanged: (pair: { base: string | null; candidate: string | null }) => void
  evaluationPoolRunsSelected: (runs: string[] | null) => void
  judgingSetSelected: (set: string | null) => void
}

export const createEvaluationSlice: StateCreator<EvaluationSlice, [], [], EvaluationSlice> = (
  set,
) => ({
  evaluationTab: 'sets',
  evaluationSet: null,
  evaluationRun: null,
  evaluationCompare: { base: null, candidate: null },
  evaluationPoolRuns: null,
  judgingSet: null,
  evaluationTabSelected: (evaluationTab) => set({ evaluationTab }),
  // Another set's runs are not this one's: forget the run and the pair picked for it.
  evaluationSetSelected: (evaluationSet) =>
    set({
      evaluationSet,
      evaluationRun: null,
      evaluationCompare: { base: null, candidate: null },
      evaluationPoolRuns: null,
    }),
  evaluationRunSelected: (evaluationRun) => set({ evaluationRun }),
  evaluationCompareChanged: (evaluationCompare) => set({ evaluationCompare }),
  evaluationPoolRunsSelected: (evaluationPoolRuns) => set({ evaluationPoolRuns }),
  judgingSetSelected: (judgingSet) => set({ judgingSet }),
})
