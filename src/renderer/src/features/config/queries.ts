import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'

/** Query keys of the registry and its file; events from main invalidate these prefixes. */
export const registryKeys = {
  all: ['registry'] as const,
  view: () => ['registry', 'view'] as const,
  history: () => ['registry', 'history'] as const,
}

export const configKeys = {
  all: ['config'] as const,
  raw: () => ['config', 'raw'] as const,
  validations: () => ['config', 'validate'] as const,
  validate: (text: string) => ['config', 'validate', text] as const,
  importCandidates: () => ['config', 'import-candidates'] as const,
}

export const registryQueries = {
  /** The running registry (last good one while the file is invalid). */
  view: () => queryOptions({ queryKey: registryKeys.view(), queryFn: () => call('registry:get') }),
  /** The last 50 reloads, newest first. */
  history: () =>
    queryOptions({
      queryKey: registryKeys.history(),
      queryFn: async () => (await call('registry:history')).slice().reverse(),
    }),
}

export const configQueries = {
  /** The writable file as on disk now, with the hash a save must name. */
  raw: () =>
    queryOptions({
      queryKey: configKeys.raw(),
      queryFn: () => call('config:read'),
      // Edits in another editor that do not change the registry send no event.
      refetchOnWindowFocus: true,
      staleTime: 0,
    }),
  /** What saving `text` would do; nothing is written. */
  validate: (text: string) =>
    queryOptions({
      queryKey: configKeys.validate(text),
      queryFn: () => call('config:validate', { text }),
      staleTime: Infinity,
      gcTime: 10_000,
    }),
  importCandidates: () =>
    queryOptions({
      queryKey: configKeys.importCandidates(),
      queryFn: () => call('config:import-candidates'),
    }),
}
