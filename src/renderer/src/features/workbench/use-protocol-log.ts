import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { subscribe } from '../../api'
import { appendLog, workbenchQueries } from './queries'

/**
 * A server's protocol log, live: while a view shows it, this page subscribes to
 * `workbench:protocol` (main sends it to no other page) and fetches the log whole once
 * subscribed, so nothing falls between the two. Unmounted, the log is let go: shown again, it
 * is fetched again.
 */
export function useProtocolLog(server: string) {
  const queryClient = useQueryClient()
  useEffect(() => {
    const stop = subscribe('workbench:protocol', (event) =>
      appendLog(queryClient, event.server, event.entries),
    )
    // Asked after the subscription, on the same connection: answered after it took effect.
    // Always anew (a log still held may have missed events); a failure shows as the query's.
    queryClient.fetchQuery({ ...workbenchQueries.log(server), staleTime: 0 }).catch(() => undefined)
    return stop
  }, [queryClient, server])
  return useQuery({ ...workbenchQueries.log(server), enabled: false })
}
