import { queryOptions } from '@tanstack/react-query'
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
}
