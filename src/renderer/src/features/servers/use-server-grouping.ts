import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { serverQueries } from './queries'
import type { ServerFilterBarProps } from './ServerFilterBar'
import {
  filterItems,
  groupItems,
  type GroupBy,
  type ItemGroup,
  type ServerFilter,
} from './server-groups'

export interface ServerGrouping<T> {
  /** The items passing the filter, in their groups (one group when not grouped). */
  groups: ItemGroup<T>[]
  groupBy: GroupBy
  /** Props for a {@link ServerFilterBar} driving this grouping. */
  bar: Omit<ServerFilterBarProps, 'label'>
}

/**
 * Filter and grouping state for a list of things about servers (cards, search sources, health
 * rows), read against the servers' summaries. `idOf` must keep its identity across renders.
 */
export function useServerGrouping<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  defaultGroupBy: GroupBy = 'none',
): ServerGrouping<T> {
  const summaries = useQuery(serverQueries.list())
  const [filter, setFilter] = useState<ServerFilter>({ text: '', onlyAttention: false })
  const [groupBy, setGroupBy] = useState<GroupBy>(defaultGroupBy)
  const groups = useMemo(() => {
    const byId = new Map((summaries.data ?? []).map((s) => [s.id, s]))
    const summaryOf = (id: string) => byId.get(id)
    return groupItems(filterItems(items, filter, idOf, summaryOf), groupBy, idOf, summaryOf)
  }, [items, idOf, summaries.data, filter, groupBy])
  return {
    groups,
    groupBy,
    bar: { filter, onFilterChange: setFilter, groupBy, onGroupByChange: setGroupBy },
  }
}
