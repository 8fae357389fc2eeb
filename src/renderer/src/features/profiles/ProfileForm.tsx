import type { Profile } from '#shared/model/user'
import { Button, ConfirmDialog, TextField } from '../../ui'
import { slugify } from './profile-form'
import { useProfileForm, type ProfileFormState } from './use-profile-form'

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
  const form = useProfileForm(profile, onSaved, onDeleted)
  const { busy } = form
  const isNew = profile === undefined
  return (
    <form
      className="profile-form"
      noValidate
      aria-label={isNew ? 'New profile' : `Profile ${profile.name}`}
      onSubmit={(event) => {
        event.preventDefault()
        void form.save()
      }}
    >
      <ProfileFields form={form} isNew={isNew} />
      <div className="profile-form__actions">
        {!isNew && (
          <Button
            variant="danger"
            icon="trash"
            disabled={isLast || busy !== null}
            title={isLast ? 'The last profile cannot be deleted' : undefined}
            onClick={() => form.setConfirmingDelete(true)}
          >
            Delete
          </Button>
        )}
        <span className="profile-form__spacer" />
        {!isNew && !isActive && (
          <Button
            busy={busy === 'activate'}
            disabled={busy !== null}
            onClick={() => void form.activate(profile)}
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
          open={form.confirmingDelete}
          title={`Delete profile ${profile.name}?`}
          confirmLabel="Delete profile"
          destructive
          busy={busy === 'delete'}
          onCancel={() => form.setConfirmingDelete(false)}
          onConfirm={() => void form.remove(profile)}
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

/** The profile's text fields; the id is derived from the name until it is saved, then fixed. */
function ProfileFields({ form, isNew }: { form: ProfileFormState; isNew: boolean }) {
  const { field, draft } = form
  return (
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
  )
}
