import { useState } from 'react'
import type { ServerDiscovery } from '#shared/model/operations'
import { TimeAgo } from '../../lib/TimeAgo'
import { Badge, Button, Icon, IconButton, Table, Toggle, type Tone } from '../../ui'
import { describeCounts, selectAll, type SourceAccess, type SourceRow } from './server-view'
import { FIRST_ROWS, sourceListView } from './source-list'

const ACCESS: Record<SourceAccess, { tone: Tone; label: string; title: string }> = {
  open: { tone: 'ok', label: 'open', title: 'This profile can search it' },
  action_required: {
    tone: 'warn',
    label: 'action required',
    title: 'Needs credentials the server does not have yet, or the server refused this user',
  },
  locked: {
    tone: 'neutral',
    label: 'locked',
    title: "The profile's groups may not see it (groups in rag-mcp.json)",
  },
  unavailable: {
    tone: 'bad',
    label: 'unavailable',
    title: 'The server reported a problem with it when asked for its sources',
  },
  unknown: {
    tone: 'neutral',
    label: 'unknown',
    title: 'Not known until the server connects: it cannot be reached now',
  },
}

/** What a capability source's token controls ask for. */
export interface TokenActions {
  /** Opens the session-only entry for the source's token. */
  onGive: (sourceId: string) => void
  onClear: (sourceId: string) => void
}

export interface SourceListProps {
  server: string
  rows: readonly SourceRow[]
  discovery: ServerDiscovery | undefined
  /** Discovery is running (first load or a refresh). */
  loading: boolean
  /** Show why discovery failed; off while the card's advice already explains the server's state. */
  showError: boolean
  /**
   * A change of sources is being saved. The toggles stay usable meanwhile: main applies each
   * change whole and in the order sent, and a switch pressed while an earlier one saves must
   * not be lost.
   */
  busy: boolean
  onChange: (sources: Record<string, boolean>) => void
  token: TokenActions
}

/** A server's data sources with their toggles; the toggles drive which sources Search uses. */
export function SourceList({
  server,
  rows,
  discovery,
  loading,
  showError,
  busy,
  onChange,
  token,
}: SourceListProps): React.JSX.Element {
  const [expanded, setExpanded] = useState(false)
  const { visible, on, summary, detailed, shown } = sourceListView(
    rows,
    discovery,
    loading,
    expanded,
  )
  return (
    <div className="server-sources">
      <div className="server-sources__head">
        <h3>
          Data sources <span className="muted">{summary}</span>
        </h3>
        {visible > 1 && (
          <BulkButtons server={server} on={on} visible={visible} rows={rows} onChange={onChange} />
        )}
      </div>
      {showError && discovery?.error && (
        <p className="server-sources__error">
          <Icon name="warning" /> Discovery failed: {discovery.error.message}
        </p>
      )}
      {rows.length === 0 ? (
        // After a failed discovery its reason above is the whole story; no guess beside it.
        !(showError && discovery?.error) && (
          <p className="muted server-sources__none">
            {loading
              ? 'Asking the server for its sources…'
              : 'No sources known: this profile may not see the server, or it is not connected.'}
          </p>
        )
      ) : (
        <Table
          label={`Data sources of ${server}`}
          className="server-sources__table"
          aria-busy={busy}
        >
          <thead>
            <tr>
              <th className="server-sources__toggle">
                <span className="visually-hidden">Use in search</span>
              </th>
              <th>Source</th>
              <th className="server-sources__access">Access</th>
              {detailed && <th className="num server-sources__counts">Contents</th>}
              {detailed && <th className="server-sources__indexed">Last indexed</th>}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <SourceRowView
                key={row.source.id}
                row={row}
                detailed={detailed}
                onToggle={(checked) => onChange({ [row.source.id]: checked })}
                server={server}
                token={token}
              />
            ))}
          </tbody>
        </Table>
      )}
      {rows.length > FIRST_ROWS && (
        <Button
          variant="ghost"
          className="server-sources__more"
          icon={expanded ? 'chevronDown' : 'chevronRight'}
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show fewer sources' : `Show all ${rows.length} sources`}
        </Button>
      )}
    </div>
  )
}

/** Turns every visible source of a server on, or off. */
function BulkButtons({
  server,
  on,
  visible,
  rows,
  onChange,
}: {
  server: string
  on: number
  visible: number
  rows: readonly SourceRow[]
  onChange: (sources: Record<string, boolean>) => void
}): React.JSX.Element {
  return (
    <span className="server-sources__bulk">
      <Button
        variant="ghost"
        disabled={on === visible}
        onClick={() => onChange(selectAll(rows, true))}
        aria-label={`Select all sources of ${server}`}
      >
        All
      </Button>
      <Button
        variant="ghost"
        disabled={on === 0}
        onClick={() => onChange(selectAll(rows, false))}
        aria-label={`Select none of the sources of ${server}`}
      >
        None
      </Button>
    </span>
  )
}

function SourceRowView({
  row,
  detailed,
  onToggle,
  server,
  token,
}: {
  row: SourceRow
  detailed: boolean
  onToggle: (checked: boolean) => void
  server: string
  token: TokenActions
}): React.JSX.Element {
  const { source, selected, access, problem } = row
  const badge = ACCESS[access]
  const indexed = source.lastIndexed ? Date.parse(source.lastIndexed) : NaN
  const who = `${source.name} (${server})`
  return (
    <tr aria-label={source.name}>
      <td className="server-sources__toggle">
        <Toggle
          checked={selected}
          onChange={onToggle}
          disabled={!source.visible}
          ariaLabel={`Search ${source.name}`}
        />
      </td>
      <td>
        <span className="server-sources__cell">
          <span className="server-sources__name">{source.name}</span>
          <code className="muted">{source.id}</code>
          {source.description && (
            <span className="server-sources__description muted" title={source.description}>
              {source.description}
            </span>
          )}
        </span>
        {problem && (
          <span className="server-sources__problem" data-tone={badge.tone}>
            <Icon name="warning" size={12} />
            <span title={source.error?.message}>{problem}</span>
            {row.token === 'missing' && source.visible && (
              <Button
                variant="ghost"
                icon="key"
                onClick={() => token.onGive(source.id)}
                aria-label={`Give token for ${who}`}
              >
                Give token…
              </Button>
            )}
          </span>
        )}
        {row.token === 'set' && (
          <span className="server-sources__problem muted">
            <Icon name="key" size={12} />
            <span>Capability token set for this session only (kept in memory).</span>
            <IconButton
              icon="close"
              tone="danger"
              label={`Clear the capability token for ${who}`}
              onClick={() => token.onClear(source.id)}
            />
          </span>
        )}
      </td>
      <td>
        <Badge tone={badge.tone} title={badge.title}>
          {access === 'locked' && <Icon name="lock" size={10} />}
          {badge.label}
        </Badge>
        {source.authMode && source.authMode !== 'none' && (
          <span className="muted server-sources__mode"> {source.authMode}</span>
        )}
      </td>
      {detailed && (
        <td className="num">{describeCounts(source.counts) ?? <span className="muted">–</span>}</td>
      )}
      {detailed && (
        <td>
          <TimeAgo at={Number.isNaN(indexed) ? undefined : indexed} />
        </td>
      )}
    </tr>
  )
}
