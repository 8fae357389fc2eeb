import type { StateCreator } from 'zustand'
import type { FusionMode } from '#shared/model/operations'

/** The query the user is writing, as the Search panel's form holds it. */
export interface SearchDraft {
  query: string
  /** Extra phrases besides the query (at most 4). */
  phrases: string[]
  topK: number
  fusion: FusionMode
}

export const SEARCH_VIEWS = ['merged', 'providers', 'all', 'answers'] as const
export type SearchView = (typeof SEARCH_VIEWS)[number]

/** The Search panel's form and view, kept while other panels show (e.g. after Check access). */
export interface SearchSlice {
  searchDraft: SearchDraft
  searchView: SearchView
  /** Servers left out of this panel's searches (the Servers toggles are not touched). */
  searchExcluded: readonly string[]
  /** The hit open in the inspector (server + id, see `hitKey`), or null. */
  searchInspected: string | null
  searchDraftChanged: (draft: SearchDraft) => void
  searchViewSelected: (view: SearchView) => void
  searchExcludedChanged: (servers: readonly string[]) => void
  searchHitInspected: (key: string | null) => void
}

export const createSearchSlice: StateCreator<SearchSlice, [], [], SearchSlice> = (set) => ({
  searchDraft: { query: '', phrases: [], topK: 10, fusion: 'rrf' },
  searchView: 'merged',
  searchExcluded: [],
  searchInspected: null,
  searchDraftChanged: (searchDraft) => set({ searchDraft }),
  searchViewSelected: (searchView) => set({ searchView }),
  searchExcludedChanged: (searchExcluded) => set({ searchExcluded }),
  searchHitInspected: (searchInspected) => set({ searchInspected }),
})
