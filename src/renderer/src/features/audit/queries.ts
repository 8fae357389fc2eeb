import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'
import { AUDIT_LIMIT, auditRequest, type AuditFilterState } from './audit-filter'

/** How often an open Audit panel looks for new lines. */
export const AUDIT_POLL_MS = 2000

export const auditKeys = {
  all: ['audit'] as const,
  list: (filter: AuditFilterState) => ['audit', 'list', filter] as const,
}

export const auditQueries = {
  /**
   * The newest lines matching the filter. There is no event per audit line, so the panel polls
   * while it is open: a search or check elsewhere shows up within {@link AUDIT_POLL_MS}.
   */
  list: (filter: AuditFilterState) =>
    queryOptions({
      queryKey: auditKeys.list(filter),
      queryFn: () =>
        call('audit:list', { ...auditRequest(filter, Date.now()), limit: AUDIT_LIMIT }),
      staleTime: 0,
      refetchInterval: AUDIT_POLL_MS,
    }),
}
