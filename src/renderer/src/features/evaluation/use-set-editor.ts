import { useState } from 'react'
import type { EvalQuery, GoldenSet, Grade } from '#shared/model/evaluation'
import { call } from '../../api'
import { downloadText } from '../audit/download'
import {
  sourcesProblem,
  typedKey,
  withGrade,
  withNewQuery,
  withoutQuery,
  withPhrasesText,
  withProfile,
  withQuery,
  withSourcesText,
  type TypedField,
  type TypedTexts,
} from './set-draft'
import { useEvalAction } from './use-eval-action'

/**
 * A golden set edited as a draft: the set as last loaded (`base`) and the edits on it. A set
 * saved elsewhere (judged in Search) replaces a clean draft, and is announced over a dirty one.
 */
export function useSetEditor(set: GoldenSet, onDeleted: () => void) {
  const [base, setBase] = useState(set)
  const [draft, setDraft] = useState(set)
  const [queryId, setQueryId] = useState(set.queries[0]?.id)
  const [typed, setTyped] = useState<TypedTexts>({})
  const [deleting, setDeleting] = useState(false)
  const { busy, act } = useEvalAction()
  const dirty = draft !== base
  if (set !== base && !dirty) {
    setBase(set)
    setDraft(set)
  }
  const load = (loaded: GoldenSet): void => {
    setBase(loaded)
    setDraft(loaded)
    setTyped({})
  }
  const editQuery = (id: string, change: (query: EvalQuery) => EvalQuery): void =>
    setDraft(withQuery(draft, id, change))

  return {
    draft,
    dirty,
    /** The set was saved elsewhere while this draft has edits. */
    changedElsewhere: dirty && set !== base,
    queryId,
    query: draft.queries.find((q) => q.id === queryId),
    pick: setQueryId,
    /** What keeps the set from being saved: typed sources that cannot be read. */
    sourcesProblem: sourcesProblem(typed),
    busy,
    deleting,
    setDeleting,
    revert: (): void => load(set),
    rename: (name: string): void => setDraft({ ...draft, name }),
    describe: (description: string): void => setDraft({ ...draft, description }),
    setQueryText: (id: string, query: string): void => editQuery(id, (q) => ({ ...q, query })),
    setProfile: (id: string, profileId: string): void =>
      setDraft(withProfile(draft, id, profileId)),
    /** A text area's text as typed, until the set is saved or reverted. */
    typedText: (id: string, field: TypedField): string | undefined => typed[typedKey(id, field)],
    type: (id: string, field: TypedField, text: string): void => {
      setTyped({ ...typed, [typedKey(id, field)]: text })
      const typeIn = field === 'phrases' ? withPhrasesText : withSourcesText
      setDraft(typeIn(draft, id, text))
    },
    setGrade: (id: string, docKey: string, grade: Grade | null): void =>
      setDraft(withGrade(draft, id, docKey, grade)),
    addQuery: (): void => {
      const added = withNewQuery(draft)
      setDraft(added.set)
      setQueryId(added.queryId)
    },
    removeQuery: (id: string): void => {
      setDraft(withoutQuery(draft, id))
      setQueryId(undefined)
    },
    save: (): void =>
      void act('save', `Could not save ${draft.name}.`, async () => {
        load(await call('eval:set:save', draft))
      }),
    exportQrels: (): void =>
      void act('export', `Could not export ${set.name} as qrels.`, async () => {
        const file = await call('eval:export-trec', { kind: 'qrels', setId: set.id })
        downloadText(file.fileName, file.mime, file.text)
      }),
    remove: (): void =>
      void act('delete', `Could not delete ${set.name}.`, async () => {
        await call('eval:set:delete', { id: set.id })
        setDeleting(false)
        onDeleted()
      }),
  }
}

export type SetEditing = ReturnType<typeof useSetEditor>
