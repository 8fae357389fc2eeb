import { Banner, Button, Dialog, Field, Select, TextField } from '../../ui'
import { setFileField, type PickedFile, type SetOrigin } from './set-import'
import { useNewSet, type NewSetting } from './use-new-set'
import { useTextFile } from './use-text-file'

export interface NewSetDialogProps {
  open: boolean
  onClose: () => void
  /** The new set's id, once it is saved. */
  onCreated: (id: string) => void
}

const ORIGINS: { value: SetOrigin; label: string }[] = [
  { value: 'empty', label: 'Nothing: an empty set' },
  { value: 'json', label: 'A golden set file (JSON)' },
  { value: 'qrels', label: 'TREC qrels (and topics)' },
]

/** Names a new golden set, empty or read from a golden set or TREC file, and saves it. */
export function NewSetDialog({ open, onClose, onCreated }: NewSetDialogProps): React.JSX.Element {
  const dialog = useNewSet(open, onClose, onCreated)
  const { origin, file } = dialog
  return (
    <Dialog
      open={open}
      onClose={dialog.close}
      title="New golden set"
      size="sm"
      onSubmit={dialog.create}
      footer={
        <>
          <Button onClick={dialog.close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={dialog.busy}>
            {origin === 'empty' ? 'Create set' : 'Import set'}
          </Button>
        </>
      }
    >
      <Select
        label="Start from"
        value={origin}
        options={ORIGINS}
        onChange={(value) => dialog.chooseOrigin(value as SetOrigin)}
      />
      {origin !== 'empty' && <SetFiles origin={origin} dialog={dialog} />}
      {dialog.fileError && (
        <Banner tone="bad" title={file ? `Cannot import ${file.name}` : 'No file chosen'}>
          {dialog.fileError}
        </Banner>
      )}
      <TextField
        label="Name"
        value={dialog.name}
        maxLength={200}
        error={dialog.error}
        hint={
          origin === 'empty'
            ? 'Queries and judgments are added as you judge hits in Search, or in the set editor.'
            : undefined
        }
        onChange={(event) => dialog.typeName(event.target.value)}
      />
    </Dialog>
  )
}

/** The file to read the set from, and for qrels the optional topics file with the queries' words. */
function SetFiles({
  origin,
  dialog,
}: {
  origin: 'json' | 'qrels'
  dialog: NewSetting
}): React.JSX.Element {
  return (
    <>
      <FilePick
        {...setFileField(origin)}
        file={dialog.file}
        onPick={dialog.pickFile}
        onError={dialog.setFileError}
        hint={
          origin === 'json' ? (
            <>
              As <code>docs/golden-set.schema.json</code> describes; an import never replaces a set.
            </>
          ) : (
            <>
              Lines <code>query-id 0 doc-id grade</code>.
            </>
          )
        }
      />
      {origin === 'qrels' && (
        <FilePick
          label="Topics file (optional)"
          accept=".txt,.tsv,.topics,text/plain"
          file={dialog.topics}
          onPick={dialog.setTopics}
          onError={dialog.setFileError}
          hint={
            <>
              Lines <code>query-id⇥query text</code> (tab-separated); without it the queries are
              named by their ids.
            </>
          }
        />
      )}
    </>
  )
}

interface FilePickProps {
  label: string
  accept: string
  file: PickedFile | undefined
  hint: React.ReactNode
  onPick: (file: PickedFile) => void
  onError: (message: string) => void
}

/** A "Choose file…" button with the chosen file's name beside it. */
function FilePick({ label, accept, file, hint, onPick, onError }: FilePickProps) {
  const { choose, input } = useTextFile(accept, onPick, onError)
  return (
    <Field label={label} hint={hint}>
      {(control) => (
        <div className="eval-file-pick">
          <Button {...control} onClick={choose}>
            Choose file…
          </Button>
          <span className={file ? 'eval-file-pick__name' : 'muted'}>
            {file ? file.name : 'No file chosen'}
          </span>
          {input}
        </div>
      )}
    </Field>
  )
}
