import type { AuditEntry } from '#shared/model/operations'
import { formatDateTime } from '../../lib/format'
import { Badge, type Column } from '../../ui'

/** The Operation cell's whole text, as it reads (for its tooltip when cut). */
function operationText(entry: AuditEntry): string {
  const sources = entry.sources && entry.sources.length > 0 ? ` (${entry.sources.join(', ')})` : ''
  return [
    `${entry.operation}${entry.automatic ? ' automatic' : ''}`,
    entry.tool,
    entry.verdict && `verdict ${entry.verdict}`,
  ]
    .filter(Boolean)
    .join(' · ')
    .concat(sources)
}

/** The audit table's columns: time, user, server, operation, outcome, results, latency. */
export const AUDIT_COLUMNS: Column<AuditEntry>[] = [
  {
    id: 'at',
    header: 'Time',
    width: '144px',
    className: 'audit__time',
    cell: (entry) => <span title={entry.at}>{formatDateTime(Date.parse(entry.at))}</span>,
  },
  {
    id: 'user',
    header: 'User',
    width: '17%',
    title: (entry) => entry.user,
    cell: (entry) => <code>{entry.user}</code>,
  },
  {
    id: 'server',
    header: 'Server',
    width: '15%',
    title: (entry) => entry.server,
    cell: (entry) => <code>{entry.server}</code>,
  },
  {
    id: 'operation',
    header: 'Operation',
    title: operationText,
    cell: (entry) => (
      <>
        {entry.operation}
        {entry.automatic && (
          <>
            {' '}
            <Badge
              tone="neutral"
              title="The console ran it by itself (page load, profile switch, a server connecting), not because someone asked"
            >
              automatic
            </Badge>
          </>
        )}
        {entry.tool && <span className="muted"> · {entry.tool}</span>}
        {entry.verdict && <span className="muted"> · verdict {entry.verdict}</span>}
        {entry.sources && entry.sources.length > 0 && (
          <span className="muted"> ({entry.sources.join(', ')})</span>
        )}
      </>
    ),
  },
  {
    id: 'outcome',
    header: 'Outcome',
    width: '150px',
    cell: (entry) =>
      entry.outcome === 'ok' ? (
        <Badge tone="ok" dot>
          ok
        </Badge>
      ) : (
        // The red badge says "error"; its code is what fits the column whole.
        <Badge tone="bad" dot title={entry.errorCode ? `error: ${entry.errorCode}` : undefined}>
          {entry.errorCode ? (
            <>
              <span className="visually-hidden">error: </span>
              {entry.errorCode}
            </>
          ) : (
            'error'
          )}
        </Badge>
      ),
  },
  {
    id: 'results',
    header: 'Results',
    width: '72px',
    className: 'num',
    cell: (entry) => entry.resultCount ?? '',
  },
  {
    id: 'latency',
    header: 'Latency',
    width: '74px',
    className: 'num',
    cell: (entry) => `${entry.latencyMs} ms`,
  },
]
