import type { RawConfig } from '#shared/ipc/registry'

/**
 * The editor's relation to the file on disk. `base` is the version the draft started from
 * (its hash goes with the next save); `diskAhead` is a newer disk version the user has not
 * seen yet, kept aside because the draft has edits.
 */
export interface DraftState {
  base: RawConfig | null
  draft: string
  diskAhead: RawConfig | null
  /**
   * Counts replacements of the draft from outside the editor (loads, revert, taking the disk's
   * version); the editor replaces its text only when this changes, never while typing.
   */
  revision: number
}

export type DraftAction =
  /** A fresh `config:read` result. */
  | { type: 'diskRead'; raw: RawConfig }
  | { type: 'edited'; text: string }
  /** The draft was written; `hash` is the file's new hash. */
  | { type: 'saved'; text: string; hash: string; path: string }
  /** Replace the draft with this disk version (conflict: "take the disk's"). */
  | { type: 'diskTaken'; raw: RawConfig }
  /** Keep the draft, but accept this disk version as the base: the next save overwrites it. */
  | { type: 'diskDismissed'; raw: RawConfig }
  | { type: 'reverted' }

export const initialDraftState: DraftState = { base: null, draft: '', diskAhead: null, revision: 0 }

export const isDirty = (state: DraftState): boolean =>
  state.base !== null && state.draft !== state.base.text

/**
 * External edits show up live: a clean editor loads them; an editor with edits keeps them and
 * holds the disk version in `diskAhead` until the user compares.
 */
export function draftReducer(state: DraftState, action: DraftAction): DraftState {
  const load = (base: RawConfig, draft = base.text): DraftState => ({
    base,
    draft,
    diskAhead: null,
    revision: draft === state.draft ? state.revision : state.revision + 1,
  })
  switch (action.type) {
    case 'diskRead': {
      const { raw } = action
      const { base } = state
      if (!base) return load(raw)
      if (raw.hash === base.hash && raw.path === base.path) {
        // Same file content; a source switch (embedded → file) may still change the text.
        return raw.text === base.text || isDirty(state) ? { ...state, diskAhead: null } : load(raw)
      }
      if (raw.text === state.draft || !isDirty(state)) return load(raw)
      return { ...state, diskAhead: raw }
    }
    case 'edited':
      return { ...state, draft: action.text }
    case 'saved': {
      if (!state.base) return state
      const base: RawConfig = {
        ...state.base,
        path: action.path,
        text: action.text,
        hash: action.hash,
        exists: true,
        fromEmbedded: false,
      }
      return { ...state, base, diskAhead: null }
    }
    case 'diskTaken':
      return load(action.raw)
    case 'diskDismissed':
      return { ...state, base: action.raw, diskAhead: null }
    case 'reverted':
      return state.base ? load(state.base) : state
  }
}
