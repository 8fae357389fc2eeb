import { useState } from 'react'
import type { Profile } from '#shared/model/user'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import {
  draftOf,
  emptyDraft,
  parseDraft,
  type ProfileDraft,
  type ProfileField,
} from './profile-form'

type Busy = 'save' | 'activate' | 'delete'

/**
 * One profile's form: the draft and its errors, and saving, activating ("view as") and deleting
 * the profile. Each says what went wrong in a notice.
 */
export function useProfileForm(
  profile: Profile | undefined,
  onSaved: (id: string) => Promise<void>,
  onDeleted: () => Promise<void>,
) {
  const notify = useNoticePosted()
  const [draft, setDraft] = useState<ProfileDraft>(profile ? draftOf(profile) : emptyDraft())
  const [errors, setErrors] = useState<Partial<Record<ProfileField, string>>>({})
  const [busy, setBusy] = useState<Busy | null>(null)
  const [confirmingDelete, setConfirmingDelete] = useState(false)

  const run = async (kind: Busy, task: () => Promise<void>) => {
    setBusy(kind)
    try {
      await task()
    } catch (error) {
      notify({ tone: 'bad', message: `Could not ${kind} the profile: ${(error as Error).message}` })
    } finally {
      setBusy(null)
    }
  }

  return {
    draft,
    busy,
    /** A text field's value, error and change handler. */
    field: (name: ProfileField) => ({
      value: draft[name],
      error: errors[name],
      onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
        setDraft({ ...draft, [name]: event.target.value }),
    }),
    save: () =>
      run('save', async () => {
        const parsed = parseDraft(draft)
        if (!parsed.ok) {
          setErrors(parsed.errors)
          return
        }
        setErrors({})
        const saved = await call('profiles:save', parsed.profile)
        notify({ tone: 'ok', message: `Saved profile ${saved.name}.` })
        await onSaved(saved.id)
      }),
    activate: (saved: Profile) =>
      run('activate', async () => {
        await call('profiles:activate', { id: saved.id })
        await onSaved(saved.id)
      }),
    confirmingDelete,
    setConfirmingDelete,
    remove: (saved: Profile) =>
      run('delete', async () => {
        await call('profiles:delete', { id: saved.id })
        setConfirmingDelete(false)
        notify({ tone: 'ok', message: `Deleted profile ${saved.name}.` })
        await onDeleted()
      }),
  }
}

export type ProfileFormState = ReturnType<typeof useProfileForm>
