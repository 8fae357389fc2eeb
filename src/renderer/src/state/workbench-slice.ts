import type { StateCreator } from 'zustand'
import type { UiState } from './store'

export const WORKBENCH_TABS = ['tools', 'resources', 'prompts', 'log'] as const
export type WorkbenchTab = (typeof WORKBENCH_TABS)[number]

/** What the Workbench panel shows: which server, which tab, which tool. */
export interface WorkbenchSlice {
  /** null: the first server in the list. */
  workbenchServer: string | null
  workbenchTab: WorkbenchTab
  /** The tool whose form is shown; null: the first one. */
  workbenchTool: string | null
  workbenchServerSelected: (server: string) => void
  workbenchTabSelected: (tab: WorkbenchTab) => void
  workbenchToolSelected: (tool: string) => void
  /** Another panel asked to open a server (and one of its tools) in the Workbench. */
  workbenchRequested: (server: string, tool?: string) => void
}

export const createWorkbenchSlice: StateCreator<UiState, [], [], WorkbenchSlice> = (set, get) => ({
  workbenchServer: null,
  workbenchTab: 'tools',
  workbenchTool: null,
  workbenchServerSelected: (server) => set({ workbenchServer: server, workbenchTool: null }),
  workbenchTabSelected: (tab) => set({ workbenchTab: tab }),
  workbenchToolSelected: (tool) => set({ workbenchTool: tool }),
  workbenchRequested: (server, tool) => {
    set({ workbenchServer: server, workbenchTab: 'tools', workbenchTool: tool ?? null })
    get().navigationRequested('workbench')
  },
})
