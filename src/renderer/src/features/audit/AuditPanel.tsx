import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { AuditEntry } from '../../../../shared/model/operations'
import { call } from '../../api'
import { formatDateTime, plural } from '../../lib/format'
import { useNoticePosted } from '../../state/store'
import { Badge, Banner, Button, Select, Spinner, VirtualTable, type Column } from '../../ui'
import {
  AUDIT_LIMIT,
  auditFacets,
  auditRequest,
  auditRowKeys,
  isFiltered,
  NO_FILTER,
  PERIODS,
  type AuditFilterState,
  type Period,
} from './audit-filter'
import { downloadText } from './download'
import { auditQueries } from './queries'
import './AuditPanel.css'

/**
 * The audit log: every tool call the console made (who, which server, what, outcome, how
 * long), newest first, filterable, live while open, exportable as JSON lines or CSV.
 */
export function AuditPanel(): React.JSX.Element {
  const [filter, setFilter] = useState<AuditFilterState>(NO_FILTER)
  const entries = useQuery({ ...auditQueries.list(filter), placeholderData: keepPreviousData })
  // The menus offer every value in the log, not only those left after filtering.
  const everything = useQuery(auditQueries.list(NO_FILTER))
  const facets = useMemo(() => auditFacets(everything.data ?? []), [everything.data])
  const notify = useNoticePosted()
  const exporting = useMutation({
    mutationFn: (format: 'jsonl' | 'csv') =>
      call('audit:export', { format, filter: auditRequest(filter, Date.now()) }),
    onSuccess: ({ fileName, mime, text }) => {
      downloadText(fileName, mime, text)
      notify({ tone: 'ok', message: `Exported the audit log as ${fileName}.` })
    },
    onError: (error) => notify({ tone: 'bad', message: `Could not export: ${error.message}` }),
  })

  const set = <K extends keyof AuditFilterState>(key: K, value: AuditFilterState[K]): void =>
    setFilter({ ...filter, [key]: value })
  const any = (label: string, values: string[], current: string) => [
    { value: '', label },
    ...values.map((value) => ({ value, label: value })),
    // Keep a chosen value listed even if it has rotated out of the newest lines.
    ...(current && !values.includes(current) ? [{ value: current, label: current }] : []),
  ]
  const rows = useMemo(() => entries.data ?? [], [entries.data])
  const keys = useMemo(() => auditRowKeys(rows), [rows])

  return (
    <div className="audit">
      <div className="audit__head">
        <h1>Audit</h1>
        <p className="muted">
          Every call to a server, newest first. Lines hold no query text and no secrets.
        </p>
      </div>
      <div className="audit__toolbar" role="group" aria-label="Filters">
        <Select
          label="Server"
          inline
          value={filter.server}
          options={any('All servers', facets.servers, filter.server)}
          onChange={(value) => set('server', value)}
        />
        <Select
          label="User"
          inline
          value={filter.user}
          options={any('All users', facets.users, filter.user)}
          onChange={(value) => set('user', value)}
        />
        <Select
          label="Operation"
          inline
          value={filter.operation}
          options={any('All operations', facets.operations, filter.operation)}
          onChange={(value) => set('operation', value)}
        />
        <Select
          label="Outcome"
          inline
          value={filter.outcome}
          options={[
            { value: '', label: 'Any outcome' },
            { value: 'ok', label: 'ok' },
            { value: 'error', label: 'error' },
          ]}
          onChange={(value) => set('outcome', value)}
        />
        <Select
          label="Time"
          inline
          value={filter.period}
          options={(Object.keys(PERIODS) as Period[]).map((value) => ({
            value,
            label: PERIODS[value].label,
          }))}
          onChange={(value) => set('period', value)}
        />
        {isFiltered(filter) && (
          <Button variant="ghost" icon="close" onClick={() => setFilter(NO_FILTER)}>
            Clear filters
          </Button>
        )}
      </div>
      {entries.isError && (
        <Banner tone="bad" title="Cannot read the audit log">
          {entries.error.message}
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
        columns={COLUMNS}
        rowKey={(entry) => keys.get(entry) ?? entry.at}
        rowLabel={(entry) =>
          `${entry.operation} on ${entry.server} by ${entry.user}: ${entry.outcome}`
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

const COLUMNS: Column<AuditEntry>[] = [
  {
    id: 'at',
    header: 'Time',
    width: '170px',
    className: 'audit__time',
    cell: (entry) => <span title={entry.at}>{formatDateTime(Date.parse(entry.at))}</span>,
  },
  { id: 'user', header: 'User', width: '20%', cell: (entry) => <code>{entry.user}</code> },
  { id: 'server', header: 'Server', width: '16%', cell: (entry) => <code>{entry.server}</code> },
  {
    id: 'operation',
    header: 'Operation',
    cell: (entry) => (
      <>
        {entry.operation}
        {entry.tool && <span className="muted"> · {entry.tool}</span>}
        {entry.sources && entry.sources.length > 0 && (
          <span className="muted" title={entry.sources.join(', ')}>
            {' '}
            ({entry.sources.join(', ')})
          </span>
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
        <Badge tone="bad" dot title={entry.errorCode}>
          {entry.errorCode ? `error: ${entry.errorCode}` : 'error'}
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
    width: '84px',
    className: 'num',
    cell: (entry) => `${entry.latencyMs} ms`,
  },
]
