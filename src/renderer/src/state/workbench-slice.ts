import type { StateCreator } from 'zustand'
import type { Draft } from '../features/workbench/schema-form'
import type { NavigationSlice } from './navigation-slice'

/** A tool's call form as the user left it (kept for the session, across tabs and panels). */
export interface ToolForm {
  mode: 'form' | 'json'
  draft: Draft
  jsonText: string
  timeout: string
}

/** The key of a tool's form: server and tool. */
export const toolFormKey = (server: string, tool: string): string => `${server}\u0000${tool}`

export const WORKBENCH_TABS = ['tools', 'resources', 'prompts', 'log'] as const
export type WorkbenchTab = (typeof WORKBENCH_TABS)[number]

/** What the Workbench panel shows: which server, which tab, which tool. */
export interface WorkbenchSlice {
  /** null: the first server in the list. */
  workbenchServer: string | null
  workbenchTab: WorkbenchTab
  /** The tool whose form is shown; null: the first one. */
  workbenchTool: string | null
  /** Call forms as left, by {@link toolFormKey}. */
  workbenchForms: Record<string, ToolForm>
  workbenchServerSelected: (server: string) => void
  workbenchTabSelected: (tab: WorkbenchTab) => void
  workbenchToolSelected: (tool: string) => void
  workbenchFormChanged: (key: string, form: ToolForm) => void
  /** Another panel asked to open a server (and one of its tools) in the Workbench. */
  workbenchRequested: (server: string, tool?: string) => void
}

export const createWorkbenchSlice: StateCreator<
  WorkbenchSlice & NavigationSlice,
  [],
  [],
  WorkbenchSlice
> = (set, get) => ({
  workbenchServer: null,
  workbenchTab: 'tools',
  workbenchTool: null,
  workbenchForms: {},
  workbenchServerSelected: (server) => set({ workbenchServer: server, workbenchTool: null }),
  workbenchTabSelected: (tab) => set({ workbenchTab: tab }),
  workbenchToolSelected: (tool) => set({ workbenchTool: tool }),
  workbenchFormChanged: (key, form) =>
    set((state) => ({ workbenchForms: { ...state.workbenchForms, [key]: form } })),
  workbenchRequested: (server, tool) => {
    set({ workbenchServer: server, workbenchTab: 'tools', workbenchTool: tool ?? null })
    get().navigationRequested('workbench')
  },
})
