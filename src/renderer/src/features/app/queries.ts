import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'

export const appKeys = {
  info: () => ['app', 'info'] as const,
}

export const appQueries = {
  info: () => queryOptions({ queryKey: appKeys.info(), queryFn: () => call('app:info') }),
}
