import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { IconButton, Select } from '../../ui'
import { ProfileDialog } from './ProfileDialog'
import { describeProfile } from './profile-form'
import { profileKeys, profileQueries } from './queries'
import './ProfileSwitcher.css'

/** "View as": the acting user every operation runs as, and a way to manage profiles. */
export function ProfileSwitcher(): React.JSX.Element {
  const profiles = useQuery(profileQueries.list())
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [managing, setManaging] = useState(false)
  const activate = useMutation({
    mutationFn: (id: string) => call('profiles:activate', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.all }),
    onError: (error) =>
      notify({ tone: 'bad', message: `Could not switch the acting user: ${error.message}` }),
  })

  if (profiles.isError) {
    return (
      <span className="profile-switcher muted" title={profiles.error.message}>
        profiles unavailable
      </span>
    )
  }
  const state = profiles.data
  const active = state?.profiles.find((p) => p.id === state.activeId)
  return (
    <div className="profile-switcher">
      <Select
        inline
        label="View as"
        value={state?.activeId ?? ''}
        options={(state?.profiles ?? []).map((p) => ({ value: p.id, label: p.name }))}
        onChange={(id) => activate.mutate(id)}
        disabled={!state || activate.isPending}
        className="profile-switcher__select"
      />
      {active && (
        <span className="profile-switcher__who" title={describeProfile(active)}>
          {describeProfile(active)}
        </span>
      )}
      <IconButton icon="users" label="Manage profiles" onClick={() => setManaging(true)} />
      {state && <ProfileDialog open={managing} onClose={() => setManaging(false)} state={state} />}
    </div>
  )
}
