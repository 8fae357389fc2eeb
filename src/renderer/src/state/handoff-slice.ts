import type { StateCreator } from 'zustand'
import type { AccessTargetInput } from '#shared/ipc/rag'
import type { NavigationSlice } from './navigation-slice'

/** Work one panel hands to another: "check access" from a hit, "adjust sources" from Search. */
export interface HandoffSlice {
  /** A target the Access panel should load (and check) when it opens; cleared once taken. */
  accessHandoff: { target: AccessTargetInput; label?: string } | null
  /** A batch the Access panel should check with `access:check-all` (e.g. a search's citations). */
  checkAllHandoff: { targets: AccessTargetInput[]; label: string } | null
  /** A server the Servers panel should scroll to and highlight. */
  serversFocus: string | null
  /** Opens Access with `target` filled in (e.g. "Check access" on a hit or citation). */
  accessRequested: (target: AccessTargetInput, label?: string) => void
  /** Opens Access and checks every target there, with a table of verdicts per class. */
  checkAllRequested: (targets: AccessTargetInput[], label: string) => void
  /** The Access panel took the handoff (either kind). */
  accessHandoffTaken: () => void
  /** Opens Servers on `server` (or the top), e.g. to adjust the sources Search uses. */
  serversRequested: (server: string | null) => void
}

export const createHandoffSlice: StateCreator<
  HandoffSlice & NavigationSlice,
  [],
  [],
  HandoffSlice
> = (set, get) => ({
  accessHandoff: null,
  checkAllHandoff: null,
  serversFocus: null,
  accessRequested: (target, label) => {
    set({ accessHandoff: label === undefined ? { target } : { target, label } })
    get().navigationRequested('access')
  },
  checkAllRequested: (targets, label) => {
    set({ checkAllHandoff: { targets, label } })
    get().navigationRequested('access')
  },
  accessHandoffTaken: () => set({ accessHandoff: null, checkAllHandoff: null }),
  serversRequested: (server) => {
    set({ serversFocus: server })
    get().navigationRequested('servers')
  },
})
