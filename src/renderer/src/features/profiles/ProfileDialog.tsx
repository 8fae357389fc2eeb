import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { ProfilesState } from '#shared/ipc/profiles'
import { Badge, Button, Dialog, Icon } from '../../ui'
import { ProfileForm } from './ProfileForm'
import { profileKeys } from './queries'
import './ProfileDialog.css'

export interface ProfileDialogProps {
  open: boolean
  onClose: () => void
  state: ProfilesState
}

/** Create, edit, delete and activate acting-user profiles. */
export function ProfileDialog({ open, onClose, state }: ProfileDialogProps): React.JSX.Element {
  // null: a new profile is being written.
  const [selectedId, setSelectedId] = useState<string | null>(state.activeId)
  const queryClient = useQueryClient()
  const selected = state.profiles.find((p) => p.id === selectedId)
  const refresh = () => queryClient.invalidateQueries({ queryKey: profileKeys.all })

  return (
    <Dialog open={open} onClose={onClose} title="Acting-user profiles" size="lg">
      <p className="muted">
        Servers receive the user id and session tags of the profile you view as; groups decide which
        servers the console shows. Profiles are kept in the app's settings, not in rag-mcp.json.
      </p>
      <div className="profile-dialog">
        <div className="profile-dialog__list" role="group" aria-label="Profiles">
          {state.profiles.map((profile) => (
            <button
              key={profile.id}
              type="button"
              className="profile-dialog__item"
              aria-pressed={profile.id === selectedId}
              onClick={() => setSelectedId(profile.id)}
            >
              <span className="profile-dialog__name">{profile.name}</span>
              {profile.id === state.activeId && <Badge tone="info">active</Badge>}
            </button>
          ))}
          <Button
            variant="ghost"
            icon="plus"
            className="profile-dialog__new"
            aria-pressed={selectedId === null}
            onClick={() => setSelectedId(null)}
          >
            New profile
          </Button>
        </div>
        <div className="profile-dialog__form">
          {selectedId !== null && !selected ? (
            <p className="muted">
              <Icon name="info" /> This profile was removed.
            </p>
          ) : (
            <ProfileForm
              key={selectedId ?? '(new)'}
              profile={selected}
              isActive={selected?.id === state.activeId}
              isLast={state.profiles.length === 1}
              onSaved={async (id) => {
                await refresh()
                setSelectedId(id)
              }}
              onDeleted={async () => {
                await refresh()
                setSelectedId(state.activeId === selectedId ? null : state.activeId)
              }}
            />
          )}
        </div>
      </div>
    </Dialog>
  )
}
