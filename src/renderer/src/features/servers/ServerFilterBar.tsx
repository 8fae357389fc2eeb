import { cx, Select, TextField, Toggle } from '../../ui'
import { GROUP_BY_OPTIONS, type GroupBy, type ServerFilter } from './server-groups'
import './ServerFilterBar.css'

export interface ServerFilterBarProps {
  filter: ServerFilter
  onFilterChange: (filter: ServerFilter) => void
  /** Omit to offer no grouping. */
  groupBy?: GroupBy
  onGroupByChange?: (groupBy: GroupBy) => void
  /** What the filter box is called, e.g. "Filter servers". */
  label: string
  className?: string
}

/**
 * The controls every long list of servers shares: a filter box (id, name, URL, dialect, status,
 * groups), "Only needing attention" and, where offered, the grouping.
 */
export function ServerFilterBar({
  filter,
  onFilterChange,
  groupBy,
  onGroupByChange,
  label,
  className,
}: ServerFilterBarProps): React.JSX.Element {
  return (
    <div className={cx('server-filter', className)} role="group" aria-label={`${label} controls`}>
      <Toggle
        checked={filter.onlyAttention}
        onChange={(onlyAttention) => onFilterChange({ ...filter, onlyAttention })}
        label="Only needing attention"
      />
      <TextField
        label={label}
        inline
        type="search"
        value={filter.text}
        placeholder="id, url, dialect, status, group…"
        onChange={(event) => onFilterChange({ ...filter, text: event.target.value })}
        fieldClassName="server-filter__text"
      />
      {groupBy !== undefined && onGroupByChange && (
        <Select
          label="Group"
          inline
          value={groupBy}
          onChange={onGroupByChange}
          options={GROUP_BY_OPTIONS}
        />
      )}
    </div>
  )
}
