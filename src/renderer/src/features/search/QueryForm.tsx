import type { FusionMode } from '#shared/model/operations'
import { ariaShortcut, Button, IconButton, isMac, Kbd, Select, TextField } from '../../ui'
import type { SearchDraft } from './search-run'

/** Extra phrases besides the query (spec 000 sends at most five in all). */
export const MAX_PHRASES = 4

const FUSION_OPTIONS: { value: FusionMode; label: string }[] = [
  { value: 'rrf', label: 'Reciprocal rank (RRF)' },
  { value: 'score', label: 'Best raw score' },
  { value: 'minmax', label: 'Scores scaled per server' },
]

const TOP_K_OPTIONS = [5, 10, 20, 50, 100].map((k) => ({ value: String(k), label: String(k) }))

export interface QueryFormProps {
  draft: SearchDraft
  onChange: (draft: SearchDraft) => void
  running: boolean
  cancelling: boolean
  /** Nothing to search on (no server takes part). */
  disabledReason?: string | undefined
  onRun: () => void
  onCancel: () => void
  /** The sources summary, shown on the form's second line. */
  sources: React.ReactNode
  /** The golden set hits are judged into, at the end of the second line. */
  judging?: React.ReactNode
}

/** Query, extra phrases, top-k, fusion, Run (Ctrl/⌘+Enter) and Cancel. */
export function QueryForm({
  draft,
  onChange,
  running,
  cancelling,
  disabledReason,
  onRun,
  onCancel,
  sources,
  judging,
}: QueryFormProps): React.JSX.Element {
  const canRun = draft.query.trim() !== '' && !disabledReason
  const setPhrase = (index: number, value: string): void =>
    onChange({ ...draft, phrases: draft.phrases.map((p, i) => (i === index ? value : p)) })
  return (
    <form
      className="search-form"
      aria-label="Search"
      onSubmit={(event) => {
        event.preventDefault()
        if (canRun) onRun()
      }}
      onKeyDown={(event) => {
        const mod = isMac() ? event.metaKey : event.ctrlKey
        if (event.key !== 'Enter' || !mod) return
        event.preventDefault()
        if (canRun) onRun()
      }}
    >
      <div className="search-form__row">
        <TextField
          label="Query"
          value={draft.query}
          onChange={(event) => onChange({ ...draft, query: event.target.value })}
          placeholder="What are you looking for?"
          type="search"
          autoFocus
          maxLength={4000}
          fieldClassName="search-form__query"
        />
        <Select
          label="Top k"
          value={String(draft.topK)}
          options={TOP_K_OPTIONS}
          onChange={(value) => onChange({ ...draft, topK: Number(value) })}
        />
        <Select
          label="Fusion"
          value={draft.fusion}
          options={FUSION_OPTIONS}
          onChange={(fusion) => onChange({ ...draft, fusion })}
        />
        <div className="search-form__buttons">
          {running ? (
            <Button icon="close" onClick={onCancel} busy={cancelling}>
              Cancel
            </Button>
          ) : null}
          <Button
            type="submit"
            variant="primary"
            icon="search"
            disabled={!canRun}
            title={disabledReason}
            aria-keyshortcuts={ariaShortcut('Mod+Enter')}
          >
            Run <Kbd shortcut="Mod+Enter" className="search-form__kbd" />
          </Button>
        </div>
      </div>
      {draft.phrases.length > 0 && (
        <div className="search-form__phrases">
          {draft.phrases.map((phrase, index) => (
            <div className="search-form__phrase" key={index}>
              <TextField
                label={`Phrase ${index + 2}`}
                inline
                value={phrase}
                maxLength={4000}
                // A phrase just added gets the focus.
                autoFocus={phrase === '' && index === draft.phrases.length - 1}
                onChange={(event) => setPhrase(index, event.target.value)}
              />
              <IconButton
                icon="close"
                label={`Remove phrase ${index + 2}`}
                onClick={() =>
                  onChange({ ...draft, phrases: draft.phrases.filter((_, i) => i !== index) })
                }
              />
            </div>
          ))}
        </div>
      )}
      <div className="search-form__row search-form__row--meta">
        <Button
          variant="ghost"
          icon="plus"
          disabled={draft.phrases.length >= MAX_PHRASES}
          title={`Up to ${MAX_PHRASES} extra phrases; each server gets the query first`}
          onClick={() => onChange({ ...draft, phrases: [...draft.phrases, ''] })}
        >
          Add phrase
        </Button>
        {sources}
        {judging}
      </div>
    </form>
  )
}
