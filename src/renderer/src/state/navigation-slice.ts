import type { StateCreator } from 'zustand'
import type { Panel } from '#shared/panels'

export { PANELS, type Panel } from '#shared/panels'

export const CONFIG_TABS = ['editor', 'secrets', 'import', 'history'] as const
export type ConfigTab = (typeof CONFIG_TABS)[number]

/** Which panel and tab are shown, and the guard that keeps unsaved config edits. */
export interface NavigationSlice {
  panel: Panel
  configTab: ConfigTab
  /** Set while leaving Config with unsaved edits waits for the user's answer. */
  pendingPanel: Panel | null
  /** The config editor holds edits that are not saved. */
  configDirty: boolean
  /** A server the Secrets tab should scroll to and highlight. */
  secretsFocus: string | null
  /** Bumped when focus should move into the shown panel (its heading). */
  panelFocus: number
  /** The user asked for a panel; held back while Config has unsaved edits. */
  navigationRequested: (panel: Panel) => void
  /** A Ctrl/⌘+N shortcut: open the panel and put focus in it, so keys act there at once. */
  panelShortcutPressed: (panel: Panel) => void
  /** The user chose to discard the unsaved edits and leave. */
  navigationConfirmed: () => void
  /** The user chose to keep editing. */
  navigationCancelled: () => void
  configTabSelected: (tab: ConfigTab) => void
  configDirtyChanged: (dirty: boolean) => void
  /** Another panel asked to show the secrets of `server` (e.g. "set its key"). */
  secretsRequested: (server: string | null) => void
}

export const createNavigationSlice: StateCreator<NavigationSlice, [], [], NavigationSlice> = (
  set,
  get,
) => ({
  panel: 'servers',
  configTab: 'editor',
  pendingPanel: null,
  configDirty: false,
  secretsFocus: null,
  panelFocus: 0,
  navigationRequested: (panel) => {
    const state = get()
    if (state.panel === panel) return
    if (state.panel === 'config' && state.configDirty) set({ pendingPanel: panel })
    else set({ panel, pendingPanel: null })
  },
  panelShortcutPressed: (panel) => {
    get().navigationRequested(panel)
    // Held back by the unsaved-edits question: that dialog takes focus instead.
    if (get().panel === panel) set((state) => ({ panelFocus: state.panelFocus + 1 }))
  },
  navigationConfirmed: () => {
    const target = get().pendingPanel
    if (target) set({ panel: target, pendingPanel: null, configDirty: false })
  },
  navigationCancelled: () => set({ pendingPanel: null }),
  configTabSelected: (configTab) => set({ configTab }),
  configDirtyChanged: (configDirty) => set({ configDirty }),
  secretsRequested: (server) => {
    // Staying inside Config keeps the editor (and its edits) mounted: no guard needed.
    set({ configTab: 'secrets', secretsFocus: server })
    get().navigationRequested('config')
  },
})
