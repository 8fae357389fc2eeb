import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'

export const profileKeys = {
  all: ['profiles'] as const,
  list: () => ['profiles', 'list'] as const,
  selection: () => ['profiles', 'selection'] as const,
}

export const profileQueries = {
  /** Saved acting-user profiles and the active one. */
  list: () => queryOptions({ queryKey: profileKeys.list(), queryFn: () => call('profiles:list') }),
  /** The active profile's remembered source toggles. */
  selection: () =>
    queryOptions({ queryKey: profileKeys.selection(), queryFn: () => call('selection:get') }),
}
