import { useState } from 'react'
import type { Profile } from '#shared/model/user'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { Button, ConfirmDialog, TextField } from '../../ui'
import {
  draftOf,
  emptyDraft,
  parseDraft,
  slugify,
  type ProfileDraft,
  type ProfileField,
} from './profile-form'

export interface ProfileFormProps {
  /** Absent for a new profile. */
  profile: Profile | undefined
  isActive: boolean
  /** The last profile cannot be deleted. */
  isLast: boolean
  onSaved: (id: string) => Promise<void>
  onDeleted: () => Promise<void>
}

/** One profile's fields, with Save, "View as this profile" and Delete. */
export function ProfileForm({
  profile,
  isActive,
  isLast,
  onSaved,
  onDeleted,
}: ProfileFormProps): React.JSX.Element {
  const notify = useNoticePosted()
  const [draft, setDraft] = useState<ProfileDraft>(profile ? draftOf(profile) : emptyDraft())
  const [errors, setErrors] = useState<Partial<Record<ProfileField, string>>>({})
  const [busy, setBusy] = useState<'save' | 'activate' | 'delete' | null>(null)
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const isNew = profile === undefined

  const field = (name: ProfileField) => ({
    value: draft[name],
    error: errors[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      setDraft({ ...draft, [name]: event.target.value }),
  })

  const run = async (kind: 'save' | 'activate' | 'delete', task: () => Promise<void>) => {
    setBusy(kind)
    try {
      await task()
    } catch (error) {
      notify({ tone: 'bad', message: `Could not ${kind} the profile: ${(error as Error).message}` })
    } finally {
      setBusy(null)
    }
  }

  const save = () =>
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
    })

  return (
    <form
      className="profile-form"
      noValidate
      aria-label={isNew ? 'New profile' : `Profile ${profile.name}`}
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <div className="profile-form__grid">
        <TextField label="Name" required autoComplete="off" data-autofocus {...field('name')} />
        <TextField
          label="Profile id"
          mono
          disabled={!isNew}
          placeholder={isNew ? slugify(draft.name || 'profile') : undefined}
          hint={isNew ? 'Optional; derived from the name.' : 'Ids cannot change.'}
          {...field('id')}
        />
        <TextField
          label="User id"
          mono
          required
          autoComplete="off"
          hint="Sent to servers as the acting user (header or username argument)."
          {...field('userId')}
        />
        <TextField
          label="Human uid"
          mono
          autoComplete="off"
          hint="Optional: the person behind a service account."
          {...field('humanUid')}
        />
        <TextField
          label="Session tags"
          autoComplete="off"
          placeholder="eu, beta"
          hint="Comma-separated; sent with every call."
          {...field('sessionTags')}
        />
        <TextField
          label="Groups"
          autoComplete="off"
          placeholder="users, support"
          hint="Comma-separated; * lists every server (each server still decides)."
          {...field('groups')}
        />
      </div>
      <div className="profile-form__actions">
        {!isNew && (
          <Button
            variant="danger"
            icon="trash"
            disabled={isLast || busy !== null}
            title={isLast ? 'The last profile cannot be deleted' : undefined}
            onClick={() => setConfirmingDelete(true)}
          >
            Delete
          </Button>
        )}
        <span className="profile-form__spacer" />
        {!isNew && !isActive && (
          <Button
            busy={busy === 'activate'}
            disabled={busy !== null}
            onClick={() =>
              void run('activate', async () => {
                await call('profiles:activate', { id: profile.id })
                await onSaved(profile.id)
              })
            }
          >
            View as this profile
          </Button>
        )}
        <Button
          type="submit"
          variant="primary"
          icon="save"
          busy={busy === 'save'}
          disabled={busy !== null}
        >
          {isNew ? 'Create profile' : 'Save profile'}
        </Button>
      </div>
      {profile && (
        <ConfirmDialog
          open={confirmingDelete}
          title={`Delete profile ${profile.name}?`}
          confirmLabel="Delete profile"
          destructive
          busy={busy === 'delete'}
          onCancel={() => setConfirmingDelete(false)}
          onConfirm={() =>
            void run('delete', async () => {
              await call('profiles:delete', { id: profile.id })
              setConfirmingDelete(false)
              notify({ tone: 'ok', message: `Deleted profile ${profile.name}.` })
              await onDeleted()
            })
          }
        >
          <p>
            Its remembered source toggles go with it.
            {isActive &&
              ' You are viewing as this profile: the console switches to the first remaining one.'}
          </p>
        </ConfirmDialog>
      )}
    </form>
  )
}
