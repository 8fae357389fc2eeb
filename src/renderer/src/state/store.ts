import { create } from 'zustand'
import { createEvaluationSlice, type EvaluationSlice } from './evaluation-slice'
import { createHandoffSlice, type HandoffSlice } from './handoff-slice'
import { createNavigationSlice, type NavigationSlice } from './navigation-slice'
import { createNoticesSlice, type NoticesSlice } from './notices-slice'
import { createSearchSlice, type SearchSlice } from './search-slice'
import { createWorkbenchSlice, type WorkbenchSlice } from './workbench-slice'

export { EVALUATION_TABS, type EvaluationTab } from './evaluation-slice'
export { CONFIG_TABS, PANELS, type ConfigTab, type Panel } from './navigation-slice'
export type { NoticeInput } from './notices-slice'
export { SEARCH_VIEWS, type SearchDraft, type SearchView } from './search-slice'
export { WORKBENCH_TABS, toolFormKey, type ToolForm, type WorkbenchTab } from './workbench-slice'

/** UI state only; server data lives in TanStack Query. One store, built from typed slices. */
export type UiState = NavigationSlice &
  NoticesSlice &
  HandoffSlice &
  SearchSlice &
  WorkbenchSlice &
  EvaluationSlice

export const createUiStore = () =>
  create<UiState>()((...args) => ({
    ...createNavigationSlice(...args),
    ...createNoticesSlice(...args),
    ...createHandoffSlice(...args),
    ...createSearchSlice(...args),
    ...createWorkbenchSlice(...args),
    ...createEvaluationSlice(...args),
  }))

export const useUiStore = createUiStore()

// Atomic selectors: each component subscribes to exactly what it reads.
export const usePanel = () => useUiStore((s) => s.panel)
export const usePanelFocus = () => useUiStore((s) => s.panelFocus)
export const usePendingPanel = () => useUiStore((s) => s.pendingPanel)
export const useConfigTab = () => useUiStore((s) => s.configTab)
export const useConfigDirty = () => useUiStore((s) => s.configDirty)
export const useSecretsFocus = () => useUiStore((s) => s.secretsFocus)
export const useToasts = () => useUiStore((s) => s.toasts)
export const useNavigationRequested = () => useUiStore((s) => s.navigationRequested)
export const useNavigationConfirmed = () => useUiStore((s) => s.navigationConfirmed)
export const useNavigationCancelled = () => useUiStore((s) => s.navigationCancelled)
export const useConfigTabSelected = () => useUiStore((s) => s.configTabSelected)
export const useConfigDirtyChanged = () => useUiStore((s) => s.configDirtyChanged)
export const useSecretsRequested = () => useUiStore((s) => s.secretsRequested)
export const useNoticePosted = () => useUiStore((s) => s.noticePosted)
export const useAccessHandoff = () => useUiStore((s) => s.accessHandoff)
export const useCheckAllHandoff = () => useUiStore((s) => s.checkAllHandoff)
export const useCheckAllRequested = () => useUiStore((s) => s.checkAllRequested)
export const useServersFocus = () => useUiStore((s) => s.serversFocus)
export const useAccessRequested = () => useUiStore((s) => s.accessRequested)
export const useAccessHandoffTaken = () => useUiStore((s) => s.accessHandoffTaken)
export const useServersRequested = () => useUiStore((s) => s.serversRequested)
export const useNoticeDismissed = () => useUiStore((s) => s.noticeDismissed)
export const useSearchDraft = () => useUiStore((s) => s.searchDraft)
export const useSearchView = () => useUiStore((s) => s.searchView)
export const useSearchExcluded = () => useUiStore((s) => s.searchExcluded)
export const useSearchDraftChanged = () => useUiStore((s) => s.searchDraftChanged)
export const useSearchViewSelected = () => useUiStore((s) => s.searchViewSelected)
export const useSearchExcludedChanged = () => useUiStore((s) => s.searchExcludedChanged)
export const useSearchInspected = () => useUiStore((s) => s.searchInspected)
export const useSearchHitInspected = () => useUiStore((s) => s.searchHitInspected)
export const useWorkbenchServer = () => useUiStore((s) => s.workbenchServer)
export const useWorkbenchTab = () => useUiStore((s) => s.workbenchTab)
export const useWorkbenchTool = () => useUiStore((s) => s.workbenchTool)
export const useWorkbenchServerSelected = () => useUiStore((s) => s.workbenchServerSelected)
export const useWorkbenchTabSelected = () => useUiStore((s) => s.workbenchTabSelected)
export const useWorkbenchToolSelected = () => useUiStore((s) => s.workbenchToolSelected)
export const useWorkbenchRequested = () => useUiStore((s) => s.workbenchRequested)
export const useWorkbenchForm = (key: string) => useUiStore((s) => s.workbenchForms[key])
export const useWorkbenchFormChanged = () => useUiStore((s) => s.workbenchFormChanged)
export const useEvaluationTab = () => useUiStore((s) => s.evaluationTab)
export const useEvaluationSet = () => useUiStore((s) => s.evaluationSet)
export const useEvaluationRun = () => useUiStore((s) => s.evaluationRun)
export const useEvaluationCompare = () => useUiStore((s) => s.evaluationCompare)
export const useEvaluationPoolRuns = () => useUiStore((s) => s.evaluationPoolRuns)
export const useJudgingSet = () => useUiStore((s) => s.judgingSet)
export const useEvaluationTabSelected = () => useUiStore((s) => s.evaluationTabSelected)
export const useEvaluationSetSelected = () => useUiStore((s) => s.evaluationSetSelected)
export const useEvaluationRunSelected = () => useUiStore((s) => s.evaluationRunSelected)
export const useEvaluationCompareChanged = () => useUiStore((s) => s.evaluationCompareChanged)
export const useEvaluationPoolRunsSelected = () => useUiStore((s) => s.evaluationPoolRunsSelected)
export const useJudgingSetSelected = () => useUiStore((s) => s.judgingSetSelected)

/** Posts a notice from outside React (event handlers, query callbacks). */
export const postNotice = (notice: Parameters<UiState['noticePosted']>[0]): number =>
  useUiStore.getState().noticePosted(notice)
