import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { GoldenSet } from '#shared/model/evaluation'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { setIdFor } from './grades'
import { evalKeys, evalQueries } from './queries'
import {
  goldenSetFrom,
  importFailure,
  nameFromFile,
  newSetProblem,
  NOTICE_MS,
  skippedNotice,
  type PickedFile,
  type SetOrigin,
} from './set-import'

type Notify = ReturnType<typeof useNoticePosted>

/** What the new set is made of, as the dialog has it when Create (or Import) is pressed. */
interface NewSet {
  origin: SetOrigin
  name: string
  file: PickedFile | undefined
  topics: PickedFile | undefined
  /** The ids of the sets there are: a new set never takes one. */
  taken: ReadonlySet<string>
}

/**
 * Saves the new set, empty or read from its file (a qrels import says what it skipped): the
 * saved set's id, or what is wrong with the file.
 */
async function saveNewSet(
  { origin, name, file, topics, taken }: NewSet,
  notify: Notify,
): Promise<{ id: string } | { fileError: string }> {
  const id = setIdFor(name, taken)
  if (origin === 'empty') {
    await call('eval:set:save', { version: 1, id, name, queries: [] })
    return { id }
  }
  if (origin === 'json') {
    const read = goldenSetFrom(file!, name, (n) => setIdFor(n, taken), taken)
    if ('error' in read) return { fileError: read.error }
    // Unchecked here: the console checks it against the golden set schema and says what is
    // wrong, field by field.
    await call('eval:set:save', read.set as unknown as GoldenSet)
    return { id: String(read.set.id) }
  }
  const imported = await call('eval:import-trec', {
    kind: 'qrels',
    text: file!.text,
    ...(topics ? { topics: topics.text } : {}),
    setId: id,
    name,
  })
  if (imported.kind === 'qrels' && imported.skipped > 0) {
    notify({
      tone: 'warn',
      ...skippedNotice(imported.skipped, file!.name, imported.skippedLines),
      timeoutMs: NOTICE_MS,
    })
  }
  return { id }
}

/**
 * The New set dialog's state: where the set starts from, its file(s) and name, what is wrong
 * with the name or the file, and creating it. Closing clears it for the next time.
 */
export function useNewSet(open: boolean, onClose: () => void, onCreated: (id: string) => void) {
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
    const problem = newSetProblem(name, origin, file)
    if (problem) return 'name' in problem ? setError(problem.name) : setFileError(problem.file)
    setBusy(true)
    try {
      const taken = new Set(sets.data?.map((s) => s.id))
      const saved = await saveNewSet({ origin, name: name.trim(), file, topics, taken }, notify)
      if ('fileError' in saved) return setFileError(saved.fileError)
      await queryClient.invalidateQueries({ queryKey: evalKeys.sets() })
      onCreated(saved.id)
      close()
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : String(failure)
      if (origin === 'empty') setError(message)
      else setFileError(importFailure(message))
    } finally {
      setBusy(false)
    }
  }

  return {
    origin,
    chooseOrigin: (next: SetOrigin): void => {
      setOrigin(next)
      setFileError(undefined)
    },
    file,
    /** A file picked: it names the set unless a name is typed already. */
    pickFile: (next: PickedFile): void => {
      setFile(next)
      setFileError(undefined)
      if (!name.trim()) setName(nameFromFile(next.name))
    },
    topics,
    setTopics,
    name,
    typeName: (next: string): void => {
      setName(next)
      setError(undefined)
    },
    error,
    fileError,
    setFileError,
    busy,
    close,
    create: (): void => void create(),
  }
}

export type NewSetting = ReturnType<typeof useNewSet>
