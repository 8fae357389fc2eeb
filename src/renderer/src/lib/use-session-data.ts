import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { useCallback, useState } from 'react'

/**
 * Server data a panel produced itself (a search run, a synthesis), kept in the query cache for
 * the session: never fetched, never garbage-collected, so it outlives the panel's unmounting.
 * Returns the value and an updater. The key is read once: one entry per component.
 */
export function useSessionData<T>(
  initialKey: QueryKey,
): [T | null, (update: (previous: T | null) => T | null) => void] {
  const [queryKey] = useState(initialKey)
  const queryClient = useQueryClient()
  const { data } = useQuery({
    queryKey,
    queryFn: () => queryClient.getQueryData<T | null>(queryKey) ?? null,
    initialData: null,
    staleTime: Infinity,
    gcTime: Infinity,
  })
  const update = useCallback(
    (change: (previous: T | null) => T | null) =>
      queryClient.setQueryData<T | null>(queryKey, (previous) => change(previous ?? null)),
    [queryClient, queryKey],
  )
  return [data ?? null, update]
}
