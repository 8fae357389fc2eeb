import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'

export const serverKeys = {
  all: ['servers'] as const,
  poolStatus: () => [...serverKeys.all, 'pool-status'] as const,
}

export const serverQueries = {
  poolStatus: () =>
    queryOptions({ queryKey: serverKeys.poolStatus(), queryFn: () => call('pool:status') }),
}
