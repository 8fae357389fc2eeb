import type { QueryClient, QueryKey } from '@tanstack/react-query'

/** Marks queries stale, at most once per `delayMs` for each key (see {@link coalescedInvalidation}). */
export type InvalidateSoon = (queryKey: QueryKey, delayMs?: number) => void

/**
 * Invalidation for bursts of events: the first event of a key schedules one invalidation
 * `delayMs` later and the events until then ride along. 200 servers connecting send hundreds of
 * status events within a second; refetching on each would re-read the whole list (and re-ask
 * every server for its sources) hundreds of times, each refetch cancelling the one before.
 */
export function coalescedInvalidation(
  queryClient: QueryClient,
  defaultDelayMs = 250,
): InvalidateSoon {
  const pending = new Set<string>()
  return (queryKey, delayMs = defaultDelayMs) => {
    const id = JSON.stringify(queryKey)
    if (pending.has(id)) return
    pending.add(id)
    setTimeout(() => {
      pending.delete(id)
      void queryClient.invalidateQueries({ queryKey })
    }, delayMs)
  }
}
