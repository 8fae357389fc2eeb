import { create } from 'zustand'

/** UI state only; server data lives in TanStack Query. */
export const PANELS = ['servers', 'search', 'access', 'health', 'config', 'audit'] as const
export type Panel = (typeof PANELS)[number]

interface NavigationSlice {
  panel: Panel
  panelSelected: (panel: Panel) => void
}

export type UiState = NavigationSlice

const createNavigationSlice = (set: (partial: Partial<UiState>) => void): NavigationSlice => ({
  panel: 'servers',
  panelSelected: (panel) => set({ panel }),
})

export const useUiStore = create<UiState>()((set) => ({
  ...createNavigationSlice(set),
}))

export const usePanel = (): Panel => useUiStore((state) => state.panel)
export const usePanelSelected = (): NavigationSlice['panelSelected'] =>
  useUiStore((state) => state.panelSelected)
