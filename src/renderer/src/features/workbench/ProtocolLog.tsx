import { LOG_LEVELS, type ProtocolEntry } from '#shared/ipc/workbench'
import { formatTime } from '../../lib/format'
import {
  Banner,
  Button,
  IconButton,
  Select,
  Spinner,
  TextField,
  Toggle,
  VirtualTable,
  type Column,
} from '../../ui'
import { formatSize } from '../search/json-text'
import { ARROWS, countLabel, emptyLogText, entryLabel } from './protocol-view'
import { useEntryText, useProtocolLogPanel, type ProtocolLogPanel } from './use-protocol-log-panel'

const DIRECTIONS = [
  { value: 'all', label: 'All' },
  { value: 'out', label: 'Sent' },
  { value: 'in', label: 'Received' },
  { value: 'stderr', label: 'stderr' },
] as const

const FROM_TITLE =
  'The console operation the message belongs to: workbench (your calls), search, doctor, ping (health probe), connect…'

/**
 * Every JSON-RPC message of a server both ways, newest first, with filter (only your own calls,
 * too), pins and export; live while `shown` (kept mounted behind the Workbench's other tabs, it
 * keeps its filter, pins and level).
 */
export function ProtocolLog({ server, shown }: { server: string; shown: boolean }) {
  const panel = useProtocolLogPanel(server, shown)
  const { log, detail } = panel
  return (
    <div className="wb-log">
      <LogToolbar panel={panel} />
      {log.isPending ? (
        <Spinner label="Reading the protocol log…" />
      ) : log.isError ? (
        <Banner tone="bad" title={`Could not read the protocol log of ${server}`}>
          {log.error.message}
        </Banner>
      ) : (
        <VirtualTable
          label={`Protocol log of ${server}`}
          className="wb-log__table"
          rows={panel.rows}
          columns={logColumns(panel)}
          rowKey={(e) => String(e.seq)}
          rowLabel={entryLabel}
          empty={emptyLogText(panel.filter.mine)}
        />
      )}
      {detail && (
        <EntryDetail key={detail.seq} server={server} entry={detail} onClose={panel.closeEntry} />
      )}
    </div>
  )
}

/** Filter, direction, "only my calls", the count, the server's log level, export and clear. */
function LogToolbar({ panel }: { panel: ProtocolLogPanel }) {
  const { filter, setFilter, clear, setLevelOnServer } = panel
  return (
    <div className="wb-log__toolbar">
      <TextField
        label="Filter"
        inline
        type="search"
        placeholder="method, id, text…"
        value={filter.text}
        onChange={(event) => setFilter({ ...filter, text: event.target.value })}
      />
      <Select
        label="Direction"
        inline
        value={filter.direction}
        options={DIRECTIONS}
        onChange={(direction) => setFilter({ ...filter, direction })}
      />
      <Toggle
        checked={filter.mine}
        onChange={(mine) => setFilter({ ...filter, mine })}
        label="Only my calls"
      />
      <span className="wb-log__count muted" aria-live="polite">
        {countLabel(panel.rows.length, panel.entries.length)}
      </span>
      <Select
        label="Server log level"
        inline
        value={panel.level}
        options={LOG_LEVELS.map((l) => ({ value: l, label: l }))}
        onChange={panel.setLevel}
      />
      <Button busy={setLevelOnServer.isPending} onClick={() => setLevelOnServer.mutate()}>
        Set level
      </Button>
      <Button icon="download" onClick={panel.exportJsonl}>
        Export JSONL
      </Button>
      <Button icon="trash" busy={clear.isPending} onClick={() => clear.mutate()}>
        Clear
      </Button>
    </div>
  )
}

/** The table's columns: a pin, time, direction, the message (opens it), kind, origin, HTTP, size, ms. */
function logColumns({ pinned, togglePin, openEntry }: ProtocolLogPanel): Column<ProtocolEntry>[] {
  return [
    {
      id: 'pin',
      header: <span className="visually-hidden">Pinned</span>,
      width: '34px',
      cell: (e) => (
        <IconButton
          icon="pin"
          label={pinned.has(e.seq) ? `Unpin entry ${e.seq}` : `Pin entry ${e.seq}`}
          aria-pressed={pinned.has(e.seq)}
          onClick={() => togglePin(e.seq)}
        />
      ),
    },
    { id: 'time', header: 'Time', width: '84px', cell: (e) => formatTime(e.at) },
    { id: 'dir', header: 'Dir', width: '84px', cell: (e) => ARROWS[e.direction] },
    {
      id: 'what',
      header: 'Message',
      cell: (e) => (
        <button type="button" className="wb-log__open" onClick={() => openEntry(e.seq)}>
          {e.method ?? e.kind}
          {e.id !== undefined && <span className="muted"> #{e.id}</span>}
          {e.level && <span className="muted"> [{e.level}]</span>}
          {(e.kind === 'stderr' || e.kind === 'note') && (
            <span className="muted"> {e.text.slice(0, 80)}</span>
          )}
          {e.truncated && <span className="muted"> (preview)</span>}
        </button>
      ),
    },
    { id: 'kind', header: 'Kind', width: '96px', cell: (e) => e.kind },
    {
      id: 'from',
      header: 'From',
      width: '92px',
      cell: (e) => <span title={FROM_TITLE}>{e.operation ?? ''}</span>,
    },
    {
      id: 'http',
      header: 'HTTP',
      width: '56px',
      className: 'num',
      cell: (e) => e.httpStatus ?? '',
    },
    {
      id: 'size',
      header: 'Size',
      width: '72px',
      className: 'num',
      cell: (e) => formatSize(e.size),
    },
    {
      id: 'ms',
      header: 'ms',
      width: '60px',
      className: 'num',
      cell: (e) => (e.durationMs === undefined ? '' : Math.round(e.durationMs)),
    },
  ]
}

/** One message with the headers the console added; a cut one can be read whole. */
function EntryDetail({
  server,
  entry,
  onClose,
}: {
  server: string
  entry: ProtocolEntry
  onClose: () => void
}) {
  const { whole, pretty } = useEntryText(server, entry)
  return (
    <section className="wb-log__detail" aria-label={`Entry ${entry.seq}`}>
      <div className="wb-log__detail-head">
        <h3>
          {ARROWS[entry.direction]} {entry.method ?? entry.kind}
          {entry.id !== undefined && ` #${entry.id}`}
        </h3>
        <span className="muted">
          {formatSize(entry.size)}
          {entry.httpStatus !== undefined && ` · HTTP ${entry.httpStatus}`}
          {entry.durationMs !== undefined && ` · ${Math.round(entry.durationMs)} ms`}
        </span>
        <IconButton icon="close" label="Close the entry" onClick={onClose} />
      </div>
      {entry.headers && Object.keys(entry.headers).length > 0 && (
        <dl className="wb-log__headers" aria-label="Headers the console added">
          {Object.entries(entry.headers).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      <pre className="wb-log__text" aria-label="Message">
        {pretty}
      </pre>
      {entry.truncated && !whole.data && (
        <Button busy={whole.isPending} onClick={() => whole.mutate()}>
          Show the whole message
        </Button>
      )}
      {whole.data && whole.data.full === null && (
        <p className="muted">The whole message is no longer kept; only this preview is.</p>
      )}
      {whole.isError && <p className="wb-form__error">{whole.error.message}</p>}
    </section>
  )
}
