import { MAX_EXTRA_PHRASES } from '#shared/model/operations'
import { ariaShortcut, Button, IconButton, isMac, Kbd, Select, TextField } from '../../ui'
import {
  FUSION_OPTIONS,
  isRunShortcut,
  mayRun,
  TOP_K_OPTIONS,
  withNewPhrase,
  withoutPhrase,
  withPhrase,
} from './query-form'
import type { SearchDraft } from './search-run'

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
  const canRun = mayRun(draft, disabledReason)
  return (
    <form
      className="search-form"
      aria-label="Search"
      onSubmit={(event) => {
        event.preventDefault()
        if (canRun) onRun()
      }}
      onKeyDown={(event) => {
        if (!isRunShortcut(event, isMac())) return
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
      {draft.phrases.length > 0 && <PhraseFields draft={draft} onChange={onChange} />}
      <div className="search-form__row search-form__row--meta">
        <Button
          variant="ghost"
          icon="plus"
          disabled={draft.phrases.length >= MAX_EXTRA_PHRASES}
          title={`Up to ${MAX_EXTRA_PHRASES} extra phrases; each server gets the query first`}
          onClick={() => onChange(withNewPhrase(draft))}
        >
          Add phrase
        </Button>
        {sources}
        {judging}
      </div>
    </form>
  )
}

/** The extra phrases, each with its Remove button; a phrase just added gets the focus. */
function PhraseFields({
  draft,
  onChange,
}: {
  draft: SearchDraft
  onChange: (draft: SearchDraft) => void
}): React.JSX.Element {
  return (
    <div className="search-form__phrases">
      {draft.phrases.map((phrase, index) => (
        <div className="search-form__phrase" key={index}>
          <TextField
            label={`Phrase ${index + 2}`}
            inline
            value={phrase}
            maxLength={4000}
            autoFocus={phrase === '' && index === draft.phrases.length - 1}
            onChange={(event) => onChange(withPhrase(draft, index, event.target.value))}
          />
          <IconButton
            icon="close"
            label={`Remove phrase ${index + 2}`}
            onClick={() => onChange(withoutPhrase(draft, index))}
          />
        </div>
      ))}
    </div>
  )
}
