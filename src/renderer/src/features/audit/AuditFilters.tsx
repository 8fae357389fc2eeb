import { Button, Select } from '../../ui'
import {
  isFiltered,
  NO_FILTER,
  PERIODS,
  type AuditFacets,
  type AuditFilterState,
  type Period,
} from './audit-filter'

export interface AuditFiltersProps {
  filter: AuditFilterState
  onChange: (filter: AuditFilterState) => void
  /** Values present in the log, offered in the menus. */
  facets: AuditFacets
}

/** The columns filtered by a value from the log: field, label, "any" wording, facet. */
const FACET_FILTERS = [
  { key: 'server', label: 'Server', any: 'All servers', facet: 'servers' },
  { key: 'user', label: 'User', any: 'All users', facet: 'users' },
  { key: 'operation', label: 'Operation', any: 'All operations', facet: 'operations' },
] as const

/** The columns filtered by a fixed list of choices: field, label, choices. */
const CHOICE_FILTERS = [
  {
    key: 'outcome',
    label: 'Outcome',
    options: [
      { value: '', label: 'Any outcome' },
      { value: 'ok', label: 'ok' },
      { value: 'error', label: 'error' },
    ],
  },
  {
    key: 'trigger',
    label: 'Trigger',
    options: [
      { value: '', label: 'Any trigger' },
      { value: 'person', label: 'Asked by a person' },
      { value: 'automatic', label: 'Automatic' },
    ],
  },
  {
    key: 'period',
    label: 'Time',
    options: (Object.keys(PERIODS) as Period[]).map((value) => ({
      value,
      label: PERIODS[value].label,
    })),
  },
] as const satisfies readonly {
  key: keyof AuditFilterState
  label: string
  options: readonly { value: string; label: string }[]
}[]

/** Server, user, operation, outcome, trigger and time filters of the audit table (and its export). */
export function AuditFilters({ filter, onChange, facets }: AuditFiltersProps): React.JSX.Element {
  const set = <K extends keyof AuditFilterState>(key: K, value: AuditFilterState[K]): void =>
    onChange({ ...filter, [key]: value })
  return (
    <div className="audit__toolbar" role="group" aria-label="Filters">
      {FACET_FILTERS.map(({ key, label, any, facet }) => {
        const values = facets[facet]
        const current = filter[key]
        return (
          <Select
            key={key}
            label={label}
            inline
            value={current}
            options={[
              { value: '', label: any },
              ...values.map((value) => ({ value, label: value })),
              // A chosen value stays listed even once it has rotated out of the newest lines.
              ...(current && !values.includes(current) ? [{ value: current, label: current }] : []),
            ]}
            onChange={(value) => set(key, value)}
          />
        )
      })}
      {CHOICE_FILTERS.map(({ key, label, options }) => (
        <Select
          key={key}
          label={label}
          inline
          value={filter[key]}
          options={options}
          // The options are the field's own values.
          onChange={(value) => set(key, value as AuditFilterState[typeof key])}
        />
      ))}
      {isFiltered(filter) && (
        <Button variant="ghost" icon="close" onClick={() => onChange(NO_FILTER)}>
          Clear filters
        </Button>
      )}
    </div>
  )
}
