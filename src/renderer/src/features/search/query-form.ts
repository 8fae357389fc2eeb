import { MAX_EXTRA_PHRASES, type FusionMode } from '#shared/model/operations'
import type { SearchDraft } from './search-run'

/**
 * The query form's choices and edits: what Top k and Fusion offer, when Run may go, and the
 * draft with a phrase added, changed or removed.
 */

export const FUSION_OPTIONS: { value: FusionMode; label: string }[] = [
  { value: 'rrf', label: 'Reciprocal rank (RRF)' },
  { value: 'score', label: 'Best raw score' },
  { value: 'minmax', label: 'Scores scaled per server' },
]

export const TOP_K_OPTIONS = [5, 10, 20, 50, 100].map((k) => ({
  value: String(k),
  label: String(k),
}))

/** Run needs a query that is not blank and something to search on. */
export const mayRun = (draft: SearchDraft, disabledReason: string | undefined): boolean =>
  draft.query.trim() !== '' && !disabledReason

/** Ctrl+Enter runs the search (⌘+Enter on a Mac). */
export const isRunShortcut = (
  event: { key: string; ctrlKey: boolean; metaKey: boolean },
  mac: boolean,
): boolean => event.key === 'Enter' && (mac ? event.metaKey : event.ctrlKey)

/** The draft with one more, empty, phrase; as it is when it holds {@link MAX_EXTRA_PHRASES}. */
export const withNewPhrase = (draft: SearchDraft): SearchDraft =>
  draft.phrases.length >= MAX_EXTRA_PHRASES ? draft : { ...draft, phrases: [...draft.phrases, ''] }

/** The draft with the phrase at `index` changed. */
export const withPhrase = (draft: SearchDraft, index: number, value: string): SearchDraft => ({
  ...draft,
  phrases: draft.phrases.map((p, i) => (i === index ? value : p)),
})

/** The draft without the phrase at `index`. */
export const withoutPhrase = (draft: SearchDraft, index: number): SearchDraft => ({
  ...draft,
  phrases: draft.phrases.filter((_, i) => i !== index),
})
