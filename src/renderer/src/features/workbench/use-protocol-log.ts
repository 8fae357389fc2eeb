import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { subscribe } from '../../api'
import { appendLog, workbenchQueries } from './queries'

/**
 * A server's protocol log, live while `shown`: this page then subscribes to that server's
 * `workbench:protocol` events (main sends them to no other page, and no other server's to this
 * one) and fetches the log whole once subscribed, so nothing falls between the two. Hidden (a
 * tab kept mounted behind another), it stops listening; shown again, it is fetched again.
 * Unmounted, the log is let go.
 */
export function useProtocolLog(server: string, shown: boolean) {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!shown) return
    const stop = subscribe(
      'workbench:protocol',
      (event) => appendLog(queryClient, event.server, event.entries),
      { server },
    )
    // Asked after the subscription, on the same connection: answered after it took effect.
    // Always anew (a log still held may have missed events); a failure shows as the query's.
    queryClient.fetchQuery({ ...workbenchQueries.log(server), staleTime: 0 }).catch(() => undefined)
    return stop
  }, [queryClient, server, shown])
  return useQuery({ ...workbenchQueries.log(server), enabled: false })
}
