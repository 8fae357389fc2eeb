import { MAX_EXTRA_PHRASES } from '#shared/model/operations'
import type { EvalQuery } from '#shared/model/evaluation'
import type { Profile } from '#shared/model/user'
import { Banner, IconButton, Select, TextField } from '../../ui'
import { JudgmentTable } from './JudgmentTable'
import { invalidSources, profileOptions, sourcesToText } from './set-draft'
import type { SetEditing } from './use-set-editor'

export interface QueryEditorProps {
  query: EvalQuery
  profiles: readonly Profile[]
  editor: SetEditing
}

/** One query of a set being edited: its text, acting profile, phrases, sources, judgments. */
export function QueryEditor({ query, profiles, editor }: QueryEditorProps): React.JSX.Element {
  const typedSources = editor.typedText(query.id, 'sources')
  return (
    <div className="eval-editor__query" role="group" aria-label={`Query ${query.id}`}>
      <div className="eval-editor__fields">
        <TextField
          label="Query"
          value={query.query}
          maxLength={4000}
          fieldClassName="eval-editor__query-text"
          onChange={(event) => editor.setQueryText(query.id, event.target.value)}
        />
        <Select
          label="Runs as"
          value={query.profileId ?? ''}
          options={profileOptions(profiles, query.profileId)}
          onChange={(profileId) => editor.setProfile(query.id, profileId)}
        />
        <IconButton
          icon="trash"
          label={`Remove query ${query.id}`}
          onClick={() => editor.removeQuery(query.id)}
        />
      </div>
      <div className="eval-editor__fields">
        <label className="eval-textarea">
          <span className="ui-field__label">Extra phrases (up to {MAX_EXTRA_PHRASES})</span>
          <textarea
            rows={2}
            placeholder="one phrase a line"
            value={editor.typedText(query.id, 'phrases') ?? (query.phrases ?? []).join('\n')}
            onChange={(event) => editor.type(query.id, 'phrases', event.target.value)}
          />
        </label>
        <label className="eval-textarea">
          <span className="ui-field__label">Sources (empty: the run's)</span>
          <textarea
            rows={2}
            placeholder={'one server a line:\nknowledgeSearch: handbook, it-kb'}
            value={typedSources ?? sourcesToText(query.sources)}
            aria-invalid={invalidSources(typedSources)}
            onChange={(event) => editor.type(query.id, 'sources', event.target.value)}
          />
        </label>
      </div>
      {editor.sourcesProblem && (
        <Banner tone="bad" title="Sources">
          {editor.sourcesProblem}
        </Banner>
      )}
      <JudgmentTable
        query={query}
        onGrade={(docKey, grade) => editor.setGrade(query.id, docKey, grade)}
      />
    </div>
  )
}
