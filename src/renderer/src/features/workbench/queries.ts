import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import { call } from '../../api'

/** Entries of a protocol log kept in the renderer: the core's ring holds as many. */
export const LOG_KEEP = 1000

export const workbenchKeys = {
  all: ['workbench'] as const,
  tools: (server: string) => [...workbenchKeys.all, 'tools', server] as const,
  history: (server: string) => [...workbenchKeys.all, 'history', server] as const,
  saved: (server: string) => [...workbenchKeys.all, 'saved', server] as const,
  resources: (server: string) => [...workbenchKeys.all, 'resources', server] as const,
  templates: (server: string) => [...workbenchKeys.all, 'templates', server] as const,
  prompts: (server: string) => [...workbenchKeys.all, 'prompts', server] as const,
  log: (server: string) => [...workbenchKeys.all, 'log', server] as const,
  /** A tool's last call from its form (written by the form, never fetched). */
  lastCall: (server: string, tool: string) =>
    [...workbenchKeys.all, 'last-call', server, tool] as const,
  /** Servers tried by hand (kept by the core: they outlive a reload). */
  tried: () => [...workbenchKeys.all, 'tried'] as const,
  /** A tried server's OAuth sign-in (`auth:changed` keeps it current). */
  auth: (server: string) => [...workbenchKeys.all, 'auth', server] as const,
}

/** One page after another (`cursor` / `nextCursor`). */
const paged = <T>(
  queryKey: readonly unknown[],
  fetch: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
) =>
  infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => fetch(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor,
  })

export const workbenchQueries = {
  /** The tools of a server; lists them (and so connects) when none are known yet. */
  tools: (server: string) =>
    queryOptions({
      queryKey: workbenchKeys.tools(server),
      queryFn: async () => {
        const known = await call('pool:tools', { server })
        return known.tools.length > 0 ? known : call('pool:tools', { server, refresh: true })
      },
    }),
  history: (server: string) =>
    queryOptions({
      queryKey: workbenchKeys.history(server),
      queryFn: async () => (await call('workbench:history', { server })).calls,
    }),
  saved: (server: string) =>
    queryOptions({
      queryKey: workbenchKeys.saved(server),
      queryFn: async () => (await call('workbench:saved-list', { server })).requests,
    }),
  resources: (server: string) =>
    paged(workbenchKeys.resources(server), (cursor) =>
      call('workbench:resources', { server, ...(cursor ? { cursor } : {}) }),
    ),
  templates: (server: string) =>
    paged(workbenchKeys.templates(server), (cursor) =>
      call('workbench:resource-templates', { server, ...(cursor ? { cursor } : {}) }),
    ),
  /** A resource's contents; not kept once no view shows it (it may change any time). */
  read: (server: string, uri: string) =>
    queryOptions({
      queryKey: [...workbenchKeys.all, 'read', server, uri] as const,
      queryFn: () => call('workbench:read-resource', { server, uri }),
      gcTime: 0,
    }),
  prompts: (server: string) =>
    paged(workbenchKeys.prompts(server), (cursor) =>
      call('workbench:prompts', { server, ...(cursor ? { cursor } : {}) }),
    ),
  /**
   * The protocol log; `workbench:protocol` events append to it (see {@link appendLog}) while a
   * view shows it (`useProtocolLog`), and no longer: dropped once no view holds it.
   */
  log: (server: string) =>
    queryOptions({
      queryKey: workbenchKeys.log(server),
      queryFn: async () => (await call('workbench:log', { server })).entries,
      staleTime: Infinity,
      gcTime: 0,
    }),
  tried: () =>
    queryOptions({
      queryKey: workbenchKeys.tried(),
      queryFn: async () => (await call('workbench:try-list')).servers,
      staleTime: Infinity,
    }),
  auth: (server: string) =>
    queryOptions({
      queryKey: workbenchKeys.auth(server),
      queryFn: async () => (await call('auth:status', { serverId: server }))[0],
    }),
}

/**
 * New entries of a server's log, added to what the panel holds (only while it holds the log:
 * the first read fetches it whole). An entry already there (same `seq`) is replaced, never added
 * twice: the core announces a request again once its HTTP status and headers arrive.
 */
export function appendLog(queryClient: QueryClient, server: string, entries: ProtocolEntry[]) {
  queryClient.setQueryData<ProtocolEntry[]>(workbenchKeys.log(server), (held) => {
    if (!held) return held
    const last = held.at(-1)?.seq ?? -1
    // An entry already held comes again when its HTTP status and headers arrive: replace it.
    const updates = new Map(entries.filter((e) => e.seq <= last).map((e) => [e.seq, e]))
    const kept = updates.size ? held.map((e) => updates.get(e.seq) ?? e) : held
    const fresh = entries.filter((entry) => entry.seq > last)
    if (fresh.length === 0) return updates.size ? kept : held
    return [...kept, ...fresh].slice(-LOG_KEEP)
  })
}
