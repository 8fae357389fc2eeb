import type { ServerDiscovery } from '#shared/model/operations'
import type { SourceRow } from './server-view'

/** Sources listed before "Show all": some servers report dozens. */
export const FIRST_ROWS = 8

/** What a server's source list shows, from its rows and the state of discovery. */
export interface SourceListView {
  /** Sources the profile may see (the ones All and None switch). */
  visible: number
  /** Of those, the ones switched on. */
  on: number
  /** `2 of 3 on · as configured · discovering…`, beside the heading. */
  summary: string
  /** Whether the Contents and Last indexed columns show: only when some source fills them. */
  detailed: boolean
  /** The rows listed: the first few until expanded. */
  shown: readonly SourceRow[]
}

export function sourceListView(
  rows: readonly SourceRow[],
  discovery: ServerDiscovery | undefined,
  loading: boolean,
  expanded: boolean,
): SourceListView {
  const visible = rows.filter((r) => r.source.visible)
  const on = visible.filter((r) => r.selected).length
  return {
    visible: visible.length,
    on,
    summary:
      (rows.length === 0 ? '' : `${on} of ${visible.length} on`) +
      (discovery && !discovery.ok ? ' · as configured' : '') +
      (loading ? ' · discovering…' : ''),
    // Columns only some families fill stay out of the way when this server fills neither.
    detailed: rows.some((r) => r.source.counts || r.source.lastIndexed),
    shown: expanded ? rows : rows.slice(0, FIRST_ROWS),
  }
}
