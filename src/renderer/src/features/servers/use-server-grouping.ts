import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { profileQueries } from '../profiles/queries'
import { secretQueries } from '../secrets/queries'
import { serverQueries } from './queries'
import type { ServerFilterBarProps } from './ServerFilterBar'
import {
  filterItems,
  groupItems,
  type GroupBy,
  type ItemGroup,
  type ServerFilter,
} from './server-groups'
import { serversWithSourceTrouble } from './server-view'

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
 * A server one of whose sources needs an action (a capability token, credentials) needs
 * attention too: its sources are asked for once attention matters here (filtered or grouped).
 */
export function useServerGrouping<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  defaultGroupBy: GroupBy = 'none',
): ServerGrouping<T> {
  const summaries = useQuery(serverQueries.list())
  const [filter, setFilter] = useState<ServerFilter>({ text: '', onlyAttention: false })
  const [groupBy, setGroupBy] = useState<GroupBy>(defaultGroupBy)
  const wanted = filter.onlyAttention || groupBy !== 'none'
  const profiles = useQuery({ ...profileQueries.list(), enabled: wanted })
  const discovery = useQuery({
    ...serverQueries.discovery(profiles.data?.activeId),
    enabled: wanted && profiles.data !== undefined,
  })
  const toggles = useQuery({ ...profileQueries.selection(), enabled: wanted })
  const tokens = useQuery({ ...secretQueries.session(), enabled: wanted })
  const groups = useMemo(() => {
    const list = summaries.data ?? []
    const byId = new Map(list.map((s) => [s.id, s]))
    const summaryOf = (id: string) => byId.get(id)
    const trouble = serversWithSourceTrouble(discovery.data, list, toggles.data, tokens.data ?? [])
    return groupItems(
      filterItems(items, filter, idOf, summaryOf, trouble),
      groupBy,
      idOf,
      summaryOf,
      trouble,
    )
  }, [items, idOf, summaries.data, filter, groupBy, discovery.data, toggles.data, tokens.data])
  return {
    groups,
    groupBy,
    bar: { filter, onFilterChange: setFilter, groupBy, onGroupByChange: setGroupBy },
  }
}
