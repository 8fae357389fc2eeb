import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'

export const secretKeys = {
  all: ['secrets'] as const,
  list: () => ['secrets', 'list'] as const,
  session: () => ['secrets', 'session'] as const,
}

export const secretQueries = {
  /** Every server's secret references, each set / missing / unknown. Never values. */
  list: () => queryOptions({ queryKey: secretKeys.list(), queryFn: () => call('secrets:list') }),
  /** Session-only tokens held in memory (names and times only). */
  session: () =>
    queryOptions({
      queryKey: secretKeys.session(),
      queryFn: async () => (await call('secrets:session-list')).tokens,
    }),
}
