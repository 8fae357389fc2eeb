import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { call } from '../../api'
import { plural } from '../../lib/format'
import { useNoticePosted } from '../../state/store'
import { Banner, Button, Spinner, VirtualTable } from '../../ui'
import {
  AUDIT_LIMIT,
  auditFacets,
  auditRequest,
  auditRowKeys,
  isFiltered,
  NO_FILTER,
  type AuditFilterState,
} from './audit-filter'
import { downloadText } from './download'
import { AUDIT_COLUMNS } from './audit-columns'
import { AuditFilters } from './AuditFilters'
import { AUDIT_POLL_MS, auditQueries } from './queries'
import './AuditPanel.css'

/** How often the filter menus look for new servers, users and operations while filtering. */
const FACETS_POLL_MS = 10_000

/**
 * The audit log: every tool call the console made (who, which server, what, outcome, how
 * long), newest first, filterable, live while open, exportable as JSON lines or CSV.
 */
export function AuditPanel(): React.JSX.Element {
  const [filter, setFilter] = useState<AuditFilterState>(NO_FILTER)
  const entries = useQuery({ ...auditQueries.list(filter), placeholderData: keepPreviousData })
  // The menus offer every value in the log, not only those left after filtering. Unfiltered
  // it is the table's own query; while filtering it need not be as live.
  const everything = useQuery({
    ...auditQueries.list(NO_FILTER),
    refetchInterval: isFiltered(filter) ? FACETS_POLL_MS : AUDIT_POLL_MS,
  })
  const facets = useMemo(() => auditFacets(everything.data?.entries ?? []), [everything.data])
  const notify = useNoticePosted()
  const exporting = useMutation({
    mutationFn: (format: 'jsonl' | 'csv') =>
      call('audit:export', { format, filter: auditRequest(filter, Date.now()) }),
    onSuccess: ({ fileName, mime, text, skipped: left }) => {
      downloadText(fileName, mime, text)
      const note = left > 0 ? ` (${plural(left, 'unreadable line')} left out)` : ''
      notify({ tone: 'ok', message: `Exported the audit log as ${fileName}${note}.` })
    },
    onError: (error) => notify({ tone: 'bad', message: `Could not export: ${error.message}` }),
  })

  const rows = useMemo(() => entries.data?.entries ?? [], [entries.data])
  const skipped = entries.data?.skipped ?? 0
  const keys = useMemo(() => auditRowKeys(rows), [rows])

  return (
    <div className="audit">
      <div className="audit__head">
        <h1 tabIndex={-1}>Audit</h1>
        <p className="muted">
          Every call to a server, newest first. Lines hold no query text and no secrets.
        </p>
      </div>
      <AuditFilters filter={filter} onChange={setFilter} facets={facets} />
      {entries.isError && (
        <Banner tone="bad" title="Cannot read the audit log">
          {entries.error.message}
        </Banner>
      )}
      {skipped > 0 && (
        <Banner tone="warn" title={`Skipped ${plural(skipped, 'unreadable line')}`}>
          The audit file holds lines that are not audit entries (a write cut short by a crash, or a
          hand edit). They are left out here and in exports; every other line is shown.
        </Banner>
      )}
      <div className="audit__status">
        <p className="audit__count muted" aria-live="polite">
          {entries.isPending ? (
            <Spinner label="Reading the audit log…" />
          ) : rows.length >= AUDIT_LIMIT ? (
            `The newest ${AUDIT_LIMIT.toLocaleString()} lines${isFiltered(filter) ? ' that match' : ''}; narrow the filters to see older ones (export has them all).`
          ) : (
            `${plural(rows.length, 'line')}${isFiltered(filter) ? (rows.length === 1 ? ' matches the filters' : ' match the filters') : ''}`
          )}
        </p>
        <Button
          icon="import"
          onClick={() => exporting.mutate('jsonl')}
          busy={exporting.isPending && exporting.variables === 'jsonl'}
          disabled={rows.length === 0}
        >
          Export JSONL
        </Button>
        <Button
          icon="import"
          onClick={() => exporting.mutate('csv')}
          busy={exporting.isPending && exporting.variables === 'csv'}
          disabled={rows.length === 0}
        >
          Export CSV
        </Button>
      </div>
      <VirtualTable
        label="Audit log"
        rows={rows}
        columns={AUDIT_COLUMNS}
        rowKey={(entry) => keys.get(entry) ?? entry.at}
        rowLabel={(entry) =>
          `${entry.operation} on ${entry.server} by ${entry.user}: ${entry.outcome}${entry.automatic ? ' (automatic)' : ''}`
        }
        empty={
          isFiltered(filter)
            ? 'No line matches the filters.'
            : 'No calls yet: searches, answers and access checks are recorded here.'
        }
        className="audit__table"
      />
    </div>
  )
}
