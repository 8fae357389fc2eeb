import { queryOptions } from '@tanstack/react-query'
import type { Hit } from '#shared/model/rag'
import { call } from '../../api'
import { serverKeys } from '../servers/queries'

export const searchKeys = {
  /**
   * Under `servers` (a server changing state refreshes which sources it offers), per acting
   * profile (each sees its own sources).
   */
  discovery: (profileId: string | undefined) =>
    [...serverKeys.all, 'discovery', profileId ?? ''] as const,
  /** The search the panel shows (written by the panel, never fetched). */
  run: () => ['search', 'run'] as const,
  /** A hit's raw payload, which main holds for its recent searches. */
  raw: (searchId: string, hit: Pick<Hit, 'server' | 'sourceId' | 'id'>) =>
    ['search', 'raw', searchId, hit.server, hit.sourceId ?? '', hit.id] as const,
  /** The last answers compared on the panel (written by the panel, never fetched). */
  answers: () => ['search', 'answers'] as const,
}

export const searchQueries = {
  /** Every visible server's data sources for the active profile, with what is selected. */
  discovery: (profileId: string | undefined) =>
    queryOptions({
      queryKey: searchKeys.discovery(profileId),
      queryFn: () => call('discovery:run', { automatic: true }),
      staleTime: 30_000,
      enabled: profileId !== undefined,
    }),
  /** Asked for when the inspector shows the hit; it does not change, but can be let go of. */
  raw: (searchId: string, hit: Pick<Hit, 'server' | 'sourceId' | 'id'>) =>
    queryOptions({
      queryKey: searchKeys.raw(searchId, hit),
      queryFn: () =>
        call('search:raw', {
          searchId,
          server: hit.server,
          ...(hit.sourceId ? { sourceId: hit.sourceId } : {}),
          hitId: hit.id,
        }),
      staleTime: Infinity,
    }),
}
