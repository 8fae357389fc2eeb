import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { IconButton, Select } from '../../ui'
import { ProfileDialog } from './ProfileDialog'
import { describeProfile } from './profile-form'
import { profileQueries } from './queries'
import { useActivateProfile } from './use-activate-profile'
import './ProfileSwitcher.css'

/** "View as": the acting user every operation runs as, and a way to manage profiles. */
export function ProfileSwitcher(): React.JSX.Element {
  const profiles = useQuery(profileQueries.list())
  const [managing, setManaging] = useState(false)
  const activate = useActivateProfile()

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
        fieldClassName="profile-switcher__field"
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
