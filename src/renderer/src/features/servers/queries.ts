import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'

/** Query keys of the servers feature; `server:status` invalidates everything under `all`. */
export const serverKeys = {
  all: ['servers'] as const,
  poolStatus: () => [...serverKeys.all, 'pool-status'] as const,
  list: () => [...serverKeys.all, 'list'] as const,
  health: () => [...serverKeys.all, 'health'] as const,
  tools: (server: string) => [...serverKeys.all, 'tools', server] as const,
  log: (server: string) => [...serverKeys.all, 'log', server] as const,
  /**
   * Discovery asks the servers, so it has its own prefix: status changes alone do not re-run it.
   * Per acting profile: a switch while the first discovery runs must not keep the old answer.
   */
  discovery: (profileId?: string) =>
    profileId === undefined ? (['discovery'] as const) : (['discovery', profileId] as const),
  /** Doctor reports change only when Doctor runs, so status events leave them alone. */
  doctor: () => ['doctor', 'last'] as const,
}

export const serverQueries = {
  poolStatus: () =>
    queryOptions({ queryKey: serverKeys.poolStatus(), queryFn: () => call('pool:status') }),
  /** Every configured server as the active profile sees it. */
  list: () => queryOptions({ queryKey: serverKeys.list(), queryFn: () => call('servers:list') }),
  /** Health of every server; the Health panel polls it while shown. */
  health: () => queryOptions({ queryKey: serverKeys.health(), queryFn: () => call('pool:health') }),
  /**
   * Data sources per visible server for the active profile. Fetched when the panel shows, a
   * server connects or the profile changes: the console's own doing, so the audit log marks it
   * automatic (Rediscover is a person asking).
   */
  discovery: (profileId: string | undefined) =>
    queryOptions({
      queryKey: serverKeys.discovery(profileId ?? ''),
      queryFn: () => call('discovery:run', { automatic: true }),
      staleTime: 30_000,
      enabled: profileId !== undefined,
    }),
  tools: (server: string) =>
    queryOptions({
      queryKey: serverKeys.tools(server),
      queryFn: () => call('pool:tools', { server }),
    }),
  /** The last lines of a server's stderr, launch output and pool notes. */
  log: (server: string) =>
    queryOptions({
      queryKey: serverKeys.log(server),
      queryFn: async () => (await call('pool:log', { server, limit: 1000 })).lines,
    }),
  /** The last Doctor report of every server, kept by main across restarts. */
  doctor: () => queryOptions({ queryKey: serverKeys.doctor(), queryFn: () => call('doctor:last') }),
}
