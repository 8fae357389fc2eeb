import type { GoldenSet } from '#shared/model/evaluation'
import type { Profile } from '#shared/model/user'
import { plural } from '../../lib/format'
import { Banner, Button, ConfirmDialog, EmptyRow, Table, TextField } from '../../ui'
import { QueryEditor } from './QueryEditor'
import { RowPick } from './RowPick'
import { judgmentCount, relevantCount } from './set-draft'
import { useSetEditor, type SetEditing } from './use-set-editor'

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
  const editor = useSetEditor(set, onDeleted)
  const { draft, dirty, query, busy } = editor

  return (
    <section className="eval-editor" aria-label={`Set ${set.name}`}>
      <div className="eval-section__head">
        <h2>{set.name}</h2>
        <span className="muted">
          {plural(draft.queries.length, 'query', 'queries')} ·{' '}
          {plural(judgmentCount(draft), 'judgment')}
        </span>
        <span className="eval-spacer" />
        <Button icon="download" busy={busy === 'export'} onClick={editor.exportQrels}>
          Export qrels
        </Button>
        <Button icon="trash" variant="ghost" onClick={() => editor.setDeleting(true)}>
          Delete set
        </Button>
        <Button disabled={!dirty} onClick={editor.revert}>
          Revert
        </Button>
        <Button
          variant="primary"
          icon="save"
          disabled={!dirty || editor.sourcesProblem !== undefined}
          title={editor.sourcesProblem ?? undefined}
          busy={busy === 'save'}
          onClick={editor.save}
        >
          Save set
        </Button>
      </div>
      {editor.changedElsewhere && (
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
          onChange={(event) => editor.rename(event.target.value)}
        />
        <TextField
          label="Description"
          value={draft.description ?? ''}
          maxLength={4000}
          fieldClassName="eval-editor__description"
          onChange={(event) => editor.describe(event.target.value)}
        />
      </div>
      <div className="eval-editor__split">
        <QueryList editor={editor} />
        {query ? (
          <QueryEditor query={query} profiles={profiles} editor={editor} />
        ) : (
          <p className="muted eval-editor__query">Choose a query to edit it and its judgments.</p>
        )}
      </div>
      <ConfirmDialog
        open={editor.deleting}
        title={`Delete ${set.name}?`}
        confirmLabel="Delete set"
        destructive
        busy={busy === 'delete'}
        onCancel={() => editor.setDeleting(false)}
        onConfirm={editor.remove}
      >
        Its {plural(set.queries.length, 'query', 'queries')} and judgments are removed from the data
        folder. Stored runs of it stay.
      </ConfirmDialog>
    </section>
  )
}

/** The set's queries, one to pick for editing, and a button to add one. */
function QueryList({ editor }: { editor: SetEditing }): React.JSX.Element {
  return (
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
          {editor.draft.queries.length === 0 && (
            <EmptyRow colSpan={4}>No queries: judge hits in Search, or add one.</EmptyRow>
          )}
          {editor.draft.queries.map((q) => (
            <tr key={q.id} className={q.id === editor.queryId ? 'eval-row--selected' : undefined}>
              <td className="mono">{q.id}</td>
              <td className="eval-cell--fill">
                <RowPick
                  picked={q.id === editor.queryId}
                  onPick={() => editor.pick(q.id)}
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
      <Button icon="plus" variant="ghost" onClick={editor.addQuery}>
        Add query
      </Button>
    </div>
  )
}
