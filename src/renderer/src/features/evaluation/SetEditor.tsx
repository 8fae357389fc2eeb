import { useState } from 'react'
import type { GoldenSet, Grade } from '../../../../shared/model/evaluation'
import type { Profile } from '../../../../shared/model/user'
import { call } from '../../api'
import { plural } from '../../lib/format'
import {
  Banner,
  Button,
  ConfirmDialog,
  EmptyRow,
  IconButton,
  Select,
  Table,
  TextField,
} from '../../ui'
import { downloadText } from '../audit/download'
import { GRADE_LABELS } from './grades'
import {
  MAX_PHRASES,
  phrasesFromText,
  relevantCount,
  sourcesFromText,
  sourcesToText,
  withGrade,
  withNewQuery,
  withoutQuery,
  withQuery,
} from './set-draft'
import { useEvalAction } from './use-eval-action'
import { RowPick } from './RowPick'

const GRADE_OPTIONS = ([0, 1, 2, 3] as const).map((grade) => ({
  value: String(grade),
  label: `${grade} ${GRADE_LABELS[grade]}`,
}))

/** `true` when typed sources cannot be read (for `aria-invalid`). */
const invalidSources = (text: string | undefined): true | undefined =>
  text !== undefined && 'error' in sourcesFromText(text) ? true : undefined

export interface SetEditorProps {
  set: GoldenSet
  profiles: readonly Profile[]
  onDeleted: () => void
}

/**
 * Edits a golden set as a draft: its name, its queries (text, extra phrases, acting profile,
 * sources) and their graded judgments; Save writes the whole set.
 */
export function SetEditor({ set, profiles, onDeleted }: SetEditorProps): React.JSX.Element {
  // The set as last loaded (`base`) and the edits on it: a set saved elsewhere (judged in
  // Search) replaces a clean draft, and is announced over a dirty one.
  const [base, setBase] = useState(set)
  const [draft, setDraft] = useState(set)
  const [queryId, setQueryId] = useState(set.queries[0]?.id)
  // Text areas as typed (a phrase being written, sources half typed), by `<query>:<field>`.
  const [raw, setRaw] = useState<Record<string, string>>({})
  const [deleting, setDeleting] = useState(false)
  const { busy, act } = useEvalAction()
  const dirty = draft !== base
  if (set !== base && !dirty) {
    setBase(set)
    setDraft(set)
  }
  const revert = (): void => {
    setBase(set)
    setDraft(set)
    setRaw({})
  }
  const query = draft.queries.find((q) => q.id === queryId)
  const sourcesProblem = Object.entries(raw)
    .filter(([key]) => key.endsWith(':sources'))
    .map(([key, text]) => {
      const read = sourcesFromText(text)
      return 'error' in read ? `${key.slice(0, -':sources'.length)}: ${read.error}` : null
    })
    .find(Boolean)

  const save = (): void =>
    void act('save', `Could not save ${draft.name}.`, async () => {
      const saved = await call('eval:set:save', draft)
      setBase(saved)
      setDraft(saved)
      setRaw({})
    })
  const exportQrels = (): void =>
    void act('export', `Could not export ${set.name} as qrels.`, async () => {
      const file = await call('eval:export-trec', { kind: 'qrels', setId: set.id })
      downloadText(file.fileName, file.mime, file.text)
    })

  return (
    <section className="eval-editor" aria-label={`Set ${set.name}`}>
      <div className="eval-section__head">
        <h2>{set.name}</h2>
        <span className="muted">
          {plural(draft.queries.length, 'query', 'queries')} ·{' '}
          {plural(
            draft.queries.reduce((sum, q) => sum + q.judgments.length, 0),
            'judgment',
          )}
        </span>
        <span className="eval-spacer" />
        <Button icon="download" busy={busy === 'export'} onClick={exportQrels}>
          Export qrels
        </Button>
        <Button icon="trash" variant="ghost" onClick={() => setDeleting(true)}>
          Delete set
        </Button>
        <Button disabled={!dirty} onClick={revert}>
          Revert
        </Button>
        <Button
          variant="primary"
          icon="save"
          disabled={!dirty || sourcesProblem !== undefined}
          title={sourcesProblem ?? undefined}
          busy={busy === 'save'}
          onClick={save}
        >
          Save set
        </Button>
      </div>
      {dirty && set !== base && (
        <Banner tone="warn" title="This set changed elsewhere">
          It was saved meanwhile (judged in Search, or by the CLI). Saving replaces those changes;
          Revert loads them and drops your edits.
        </Banner>
      )}
      <div className="eval-editor__fields">
        <TextField
          label="Name"
          value={draft.name}
          maxLength={200}
          onChange={(event) => setDraft({ ...draft, name: event.target.value })}
        />
        <TextField
          label="Description"
          value={draft.description ?? ''}
          maxLength={4000}
          fieldClassName="eval-editor__description"
          onChange={(event) => setDraft({ ...draft, description: event.target.value })}
        />
      </div>
      <div className="eval-editor__split">
        <div className="eval-editor__queries">
          <Table label="Queries" scroll className="eval-queries">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Query</th>
                <th scope="col">Profile</th>
                <th scope="col" className="num" title="Relevant judgments / all judgments">
                  Judged
                </th>
              </tr>
            </thead>
            <tbody>
              {draft.queries.length === 0 && (
                <EmptyRow colSpan={4}>No queries: judge hits in Search, or add one.</EmptyRow>
              )}
              {draft.queries.map((q) => (
                <tr key={q.id} className={q.id === queryId ? 'eval-row--selected' : undefined}>
                  <td className="mono">{q.id}</td>
                  <td className="eval-cell--fill">
                    <RowPick
                      picked={q.id === queryId}
                      onPick={() => setQueryId(q.id)}
                      title={q.query}
                    >
                      {q.query}
                    </RowPick>
                  </td>
                  <td className="muted">{q.profileId ?? 'every'}</td>
                  <td className="num">
                    {relevantCount(q)} / {q.judgments.length}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Button
            icon="plus"
            variant="ghost"
            onClick={() => {
              const added = withNewQuery(draft)
              setDraft(added.set)
              setQueryId(added.queryId)
            }}
          >
            Add query
          </Button>
        </div>
        {query ? (
          <div className="eval-editor__query" role="group" aria-label={`Query ${query.id}`}>
            <div className="eval-editor__fields">
              <TextField
                label="Query"
                value={query.query}
                maxLength={4000}
                fieldClassName="eval-editor__query-text"
                onChange={(event) =>
                  setDraft(withQuery(draft, query.id, (q) => ({ ...q, query: event.target.value })))
                }
              />
              <Select
                label="Runs as"
                value={query.profileId ?? ''}
                options={[
                  { value: '', label: 'Every profile of the run' },
                  ...profiles.map((p) => ({ value: p.id, label: p.name })),
                  ...(query.profileId && !profiles.some((p) => p.id === query.profileId)
                    ? [{ value: query.profileId, label: `${query.profileId} (no such profile)` }]
                    : []),
                ]}
                onChange={(profileId) =>
                  setDraft(
                    withQuery(draft, query.id, ({ profileId: _old, ...q }) =>
                      profileId ? { ...q, profileId } : q,
                    ),
                  )
                }
              />
              <IconButton
                icon="trash"
                label={`Remove query ${query.id}`}
                onClick={() => {
                  setDraft(withoutQuery(draft, query.id))
                  setQueryId(undefined)
                }}
              />
            </div>
            <div className="eval-editor__fields">
              <label className="eval-textarea">
                <span className="ui-field__label">Extra phrases (up to {MAX_PHRASES})</span>
                <textarea
                  rows={2}
                  placeholder="one phrase a line"
                  value={raw[`${query.id}:phrases`] ?? (query.phrases ?? []).join('\n')}
                  onChange={(event) => {
                    setRaw({ ...raw, [`${query.id}:phrases`]: event.target.value })
                    const phrases = phrasesFromText(event.target.value).slice(0, MAX_PHRASES)
                    setDraft(
                      withQuery(draft, query.id, ({ phrases: _old, ...q }) =>
                        phrases.length > 0 ? { ...q, phrases } : q,
                      ),
                    )
                  }}
                />
              </label>
              <label className="eval-textarea">
                <span className="ui-field__label">Sources (empty: the run's)</span>
                <textarea
                  rows={2}
                  placeholder={'one server a line:\nknowledgeSearch: handbook, it-kb'}
                  value={raw[`${query.id}:sources`] ?? sourcesToText(query.sources)}
                  aria-invalid={invalidSources(raw[`${query.id}:sources`])}
                  onChange={(event) => {
                    const text = event.target.value
                    setRaw({ ...raw, [`${query.id}:sources`]: text })
                    const read = sourcesFromText(text)
                    if ('sources' in read) {
                      setDraft(
                        withQuery(draft, query.id, ({ sources: _old, ...q }) =>
                          read.sources ? { ...q, sources: read.sources } : q,
                        ),
                      )
                    }
                  }}
                />
              </label>
            </div>
            {sourcesProblem && (
              <Banner tone="bad" title="Sources">
                {sourcesProblem}
              </Banner>
            )}
            <Table label={`Judgments of ${query.id}`} scroll className="eval-judgments eval-fixed">
              <thead>
                <tr>
                  <th scope="col">Document</th>
                  <th scope="col" className="eval-col--grade-select">
                    Grade
                  </th>
                  <th scope="col" className="eval-col--remove">
                    <span className="visually-hidden">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {query.judgments.length === 0 && (
                  <EmptyRow colSpan={3}>
                    Not judged yet: search this query and mark hits relevant.
                  </EmptyRow>
                )}
                {query.judgments.map((j) => {
                  const name = j.title || j.docKey
                  return (
                    <tr key={j.docKey}>
                      <td className="eval-cell--text" title={j.docKey}>
                        {name}
                      </td>
                      <td>
                        <Select
                          label={<span className="visually-hidden">Grade of {name}</span>}
                          value={String(j.grade)}
                          options={GRADE_OPTIONS}
                          onChange={(value) =>
                            setDraft(withGrade(draft, query.id, j.docKey, Number(value) as Grade))
                          }
                        />
                      </td>
                      <td className="actions">
                        <IconButton
                          icon="trash"
                          label={`Remove the judgment of ${name}`}
                          onClick={() => setDraft(withGrade(draft, query.id, j.docKey, null))}
                        />
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </Table>
          </div>
        ) : (
          <p className="muted eval-editor__query">Choose a query to edit it and its judgments.</p>
        )}
      </div>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${set.name}?`}
        confirmLabel="Delete set"
        destructive
        busy={busy === 'delete'}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          void act('delete', `Could not delete ${set.name}.`, async () => {
            await call('eval:set:delete', { id: set.id })
            setDeleting(false)
            onDeleted()
          })
        }
      >
        Its {plural(set.queries.length, 'query', 'queries')} and judgments are removed from the data
        folder. Stored runs of it stay.
      </ConfirmDialog>
    </section>
  )
}
