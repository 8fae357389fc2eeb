import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'

export const appQueries = {
  info: () => queryOptions({ queryKey: ['app', 'info'], queryFn: () => call('app:info') }),
}
