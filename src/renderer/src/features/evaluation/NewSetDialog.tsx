import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { GoldenSet } from '#shared/model/evaluation'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { Banner, Button, Dialog, Field, Select, TextField } from '../../ui'
import { setIdFor } from './grades'
import { evalKeys, evalQueries } from './queries'
import {
  goldenSetFrom,
  nameFromFile,
  NOTICE_MS,
  skippedNotice,
  type PickedFile,
  type SetOrigin,
} from './set-import'
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
  const sets = useQuery({ ...evalQueries.sets(), enabled: open })
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [origin, setOrigin] = useState<SetOrigin>('empty')
  const [file, setFile] = useState<PickedFile | undefined>()
  const [topics, setTopics] = useState<PickedFile | undefined>()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | undefined>()
  /** What is wrong with the file, as opposed to the name. */
  const [fileError, setFileError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const close = (): void => {
    setName('')
    setError(undefined)
    setFileError(undefined)
    setFile(undefined)
    setTopics(undefined)
    setOrigin('empty')
    onClose()
  }
  const create = async (): Promise<void> => {
    const trimmed = name.trim()
    if (!trimmed) return setError('Give the set a name.')
    if (origin !== 'empty' && !file) return setFileError('Choose the file to read the set from.')
    setBusy(true)
    try {
      const taken = new Set(sets.data?.map((s) => s.id))
      let id = setIdFor(trimmed, taken)
      if (origin === 'empty') {
        await call('eval:set:save', { version: 1, id, name: trimmed, queries: [] })
      } else if (origin === 'json') {
        const read = goldenSetFrom(file!, trimmed, (n) => setIdFor(n, taken), taken)
        if ('error' in read) return setFileError(read.error)
        // Unchecked here: the console checks it against the golden set schema and says what is
        // wrong, field by field.
        await call('eval:set:save', read.set as unknown as GoldenSet)
        id = String(read.set.id)
      } else {
        const imported = await call('eval:import-trec', {
          kind: 'qrels',
          text: file!.text,
          ...(topics ? { topics: topics.text } : {}),
          setId: id,
          name: trimmed,
        })
        if (imported.kind === 'qrels' && imported.skipped > 0) {
          notify({
            tone: 'warn',
            ...skippedNotice(imported.skipped, file!.name, imported.skippedLines),
            timeoutMs: NOTICE_MS,
          })
        }
      }
      await queryClient.invalidateQueries({ queryKey: evalKeys.sets() })
      onCreated(id)
      close()
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : String(failure)
      if (origin === 'empty') setError(message)
      // The channel's name says nothing to a person choosing a file.
      else setFileError(message.replace(/^eval:[a-z:-]+: invalid request: /, ''))
    } finally {
      setBusy(false)
    }
  }
  const picked = (next: PickedFile): void => {
    setFile(next)
    setFileError(undefined)
    if (!name.trim()) setName(nameFromFile(next.name))
  }
  return (
    <Dialog
      open={open}
      onClose={close}
      title="New golden set"
      size="sm"
      onSubmit={() => void create()}
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            {origin === 'empty' ? 'Create set' : 'Import set'}
          </Button>
        </>
      }
    >
      <Select
        label="Start from"
        value={origin}
        options={ORIGINS}
        onChange={(value) => {
          setOrigin(value as SetOrigin)
          setFileError(undefined)
        }}
      />
      {origin !== 'empty' && (
        <FilePick
          label={origin === 'json' ? 'Golden set file' : 'Qrels file'}
          accept={origin === 'json' ? '.json,application/json' : '.qrels,.txt,.tsv,text/plain'}
          file={file}
          onPick={picked}
          onError={setFileError}
          hint={
            origin === 'json' ? (
              <>
                As <code>docs/golden-set.schema.json</code> describes; an import never replaces a
                set.
              </>
            ) : (
              <>
                Lines <code>query-id 0 doc-id grade</code>.
              </>
            )
          }
        />
      )}
      {origin === 'qrels' && (
        <FilePick
          label="Topics file (optional)"
          accept=".txt,.tsv,.topics,text/plain"
          file={topics}
          onPick={setTopics}
          onError={setFileError}
          hint={
            <>
              Lines <code>query-id⇥query text</code> (tab-separated); without it the queries are
              named by their ids.
            </>
          }
        />
      )}
      {fileError && (
        <Banner tone="bad" title={file ? `Cannot import ${file.name}` : 'No file chosen'}>
          {fileError}
        </Banner>
      )}
      <TextField
        label="Name"
        value={name}
        maxLength={200}
        error={error}
        hint={
          origin === 'empty'
            ? 'Queries and judgments are added as you judge hits in Search, or in the set editor.'
            : undefined
        }
        onChange={(event) => {
          setName(event.target.value)
          setError(undefined)
        }}
      />
    </Dialog>
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
