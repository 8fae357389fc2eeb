import { useQuery } from '@tanstack/react-query'
import { describeProfile } from '../profiles/profile-form'
import { profileQueries } from '../profiles/queries'
import { Select } from '../../ui'

export interface CheckAsSelectProps {
  /** The chosen profile id; null: the active (“View as”) one. */
  value: string | null
  onChange: (profileId: string) => void
  fieldClassName?: string
  /** Shows the profile's identity under the field. */
  hint?: boolean
  label?: string
  /** Label beside the field instead of above it. */
  inline?: boolean
}

/** The profile a check runs as; the active one until another is picked. */
export function useCheckAs(chosen: string | null) {
  const state = useQuery(profileQueries.list()).data
  const profile =
    state?.profiles.find((p) => p.id === chosen) ??
    state?.profiles.find((p) => p.id === state.activeId)
  return { state, profile }
}

/**
 * “Check as”: the acting user for checks made here only; picking one does not change
 * “View as” for the rest of the console.
 */
export function CheckAsSelect({
  value,
  onChange,
  fieldClassName,
  hint = false,
  label = 'Check as',
  inline = false,
}: CheckAsSelectProps): React.JSX.Element {
  const { state, profile } = useCheckAs(value)
  return (
    <Select
      label={label}
      inline={inline}
      value={profile?.id ?? ''}
      options={(state?.profiles ?? []).map((p) => ({
        value: p.id,
        label: p.id === state?.activeId ? `${p.name} (View as)` : p.name,
      }))}
      onChange={onChange}
      disabled={!state}
      hint={hint && profile ? describeProfile(profile) : undefined}
      title="The acting user for this check only; “View as” stays as it is"
      {...(fieldClassName ? { fieldClassName } : {})}
    />
  )
}
