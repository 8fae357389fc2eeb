import { listNames, plural } from '../../lib/format'
import { useServersRequested } from '../../state/store'
import { Badge, Button, Icon, Popover, Spinner } from '../../ui'
import { ServerFilterBar } from '../servers/ServerFilterBar'
import type { ItemGroup } from '../servers/server-groups'
import { useServerGrouping } from '../servers/use-server-grouping'
import { sittingOut, takesPart, type ServerSources } from './sources'

export interface SourcesSummaryProps {
  servers: readonly ServerSources[]
  loading: boolean
  error?: string | undefined
  excluded: ReadonlySet<string>
  onExcludedChange: (excluded: Set<string>) => void
}

/**
 * "4 servers · 9 sources" with a popover per server: what is selected there, leave it out of
 * this search, or adjust its toggles on the Servers panel.
 */
export function SourcesSummary({
  servers,
  loading,
  error,
  excluded,
  onExcludedChange,
}: SourcesSummaryProps): React.JSX.Element {
  const serversRequested = useServersRequested()
  if (loading) return <Spinner size={12} label="Finding the data sources…" />
  if (error) {
    return (
      <span className="search-sources search-sources--error">
        Cannot list the data sources: {error}{' '}
        <Button variant="ghost" onClick={() => serversRequested(null)}>
          Open Servers
        </Button>
      </span>
    )
  }
  const taking = servers.filter((s) => takesPart(s) && !excluded.has(s.server))
  const sources = taking.reduce((sum, s) => sum + Math.max(1, s.selected.length), 0)
  const summary =
    taking.length === 0
      ? 'No sources selected'
      : `${plural(taking.length, 'server')} · ${plural(sources, 'source')}`
  return (
    <span className="search-sources">
      <span className="muted">Searching</span>
      <Popover
        trigger={
          <>
            {summary}
            {excluded.size > 0 && <Badge tone="warn">{excluded.size} left out</Badge>}
          </>
        }
        triggerPrefix="Sources:"
        triggerClassName="search-sources__trigger"
        label="Sources of this search"
        className="search-sources__popover"
      >
        <SourcePicker servers={servers} excluded={excluded} onExcludedChange={onExcludedChange} />
        <p className="muted search-sources__hint">
          Leaving a server out applies to this panel only; the toggles on Servers are kept.
        </p>
      </Popover>
      <NotSearched servers={servers} />
    </span>
  )
}

/** The servers the search does not run on and why, beside the scope (not only in its popover). */
function NotSearched({ servers }: { servers: readonly ServerSources[] }): React.JSX.Element | null {
  const serversRequested = useServersRequested()
  const out = sittingOut(servers)
  if (out.length === 0) return null
  const why = out.map((o) => `${o.server}: ${o.reason}`).join('\n')
  return (
    <span className="search-sources__out" role="note" aria-label="Servers not searched" title={why}>
      <Icon name="warning" size={12} />
      <span className="search-sources__out-text">
        {out.length <= 2
          ? out.map((o) => `${o.server} not searched: ${o.reason}`).join('; ')
          : `${out.length} servers not searched (${listNames(
              out.map((o) => o.server),
              2,
            )})`}
      </span>
      <Button
        variant="ghost"
        onClick={() => serversRequested(out[0]!.server)}
        aria-label={`Select sources of ${out[0]!.server} on Servers`}
      >
        Select sources…
      </Button>
    </span>
  )
}

const serverOf = (entry: ServerSources): string => entry.server

/**
 * The servers of the search, filtered and grouped like the Servers panel, each group with
 * "Include all" and "Leave out all" for its servers.
 */
function SourcePicker({
  servers,
  excluded,
  onExcludedChange,
}: Pick<SourcesSummaryProps, 'servers' | 'excluded' | 'onExcludedChange'>): React.JSX.Element {
  const { groups, groupBy, bar } = useServerGrouping(
    servers,
    serverOf,
    servers.length > 12 ? 'groups' : 'none',
  )

  const setAll = (group: ItemGroup<ServerSources>, include: boolean): void => {
    const next = new Set(excluded)
    for (const entry of group.items) {
      if (include) next.delete(entry.server)
      else if (takesPart(entry)) next.add(entry.server)
    }
    onExcludedChange(next)
  }
  const toggle = (server: string, include: boolean): void => {
    const next = new Set(excluded)
    if (include) next.delete(server)
    else next.add(server)
    onExcludedChange(next)
  }

  return (
    <>
      {servers.length > 6 && (
        <ServerFilterBar label="Filter servers" {...bar} className="search-sources__filter" />
      )}
      <div className="search-sources__scroll">
        {groups.length === 0 && <p className="muted">No server matches the filter.</p>}
        {groups.map((group) => {
          const taking = group.items.filter((e) => takesPart(e) && !excluded.has(e.server))
          return (
            <section key={group.key} aria-label={`Servers in ${group.label}`}>
              {groupBy !== 'none' && (
                <div className="search-sources__group">
                  <h3>{group.label}</h3>
                  <span className="muted">
                    {taking.length} of {plural(group.items.length, 'server')} in this search
                  </span>
                  <span className="search-sources__spacer" />
                  <Button
                    variant="ghost"
                    onClick={() => setAll(group, true)}
                    aria-label={`Include every server in ${group.label}`}
                  >
                    All
                  </Button>
                  <Button
                    variant="ghost"
                    onClick={() => setAll(group, false)}
                    aria-label={`Leave out every server in ${group.label}`}
                  >
                    None
                  </Button>
                </div>
              )}
              <ul className="search-sources__list">
                {group.items.map((entry) => (
                  <SourceRow
                    key={entry.server}
                    entry={entry}
                    excluded={excluded}
                    onToggle={toggle}
                  />
                ))}
              </ul>
            </section>
          )
        })}
      </div>
    </>
  )
}

function SourceRow({
  entry,
  excluded,
  onToggle,
}: {
  entry: ServerSources
  excluded: ReadonlySet<string>
  onToggle: (server: string, include: boolean) => void
}): React.JSX.Element {
  const serversRequested = useServersRequested()
  const active = takesPart(entry)
  return (
    <li>
      <label className="search-sources__server">
        <input
          type="checkbox"
          checked={active && !excluded.has(entry.server)}
          disabled={!active}
          onChange={(event) => onToggle(entry.server, event.target.checked)}
        />
        <code>{entry.server}</code>
      </label>
      <span
        className="search-sources__names muted"
        title={entry.selected.map((s) => s.name).join(', ')}
      >
        {entry.error
          ? entry.error.message
          : entry.total === 0
            ? 'the whole server'
            : entry.selected.length === 0
              ? 'nothing selected'
              : `${listNames(
                  entry.selected.map((s) => s.name),
                  2,
                )} (${entry.selected.length}/${entry.total})`}
      </span>
      <Button
        variant="ghost"
        onClick={() => serversRequested(entry.server)}
        aria-label={`Adjust the sources of ${entry.server}`}
      >
        Adjust…
      </Button>
    </li>
  )
}
