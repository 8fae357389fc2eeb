import { listNames, plural } from '../../lib/format'
import { useServersRequested } from '../../state/store'
import { Badge, Button, Popover, Spinner } from '../../ui'
import { takesPart, type ServerSources } from './sources'

export interface SourcesSummaryProps {
  servers: readonly ServerSources[]
  loading: boolean
  error?: string
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
        triggerLabel={`Sources: ${summary}`}
        triggerClassName="search-sources__trigger"
        label="Sources of this search"
        className="search-sources__popover"
      >
        <ul className="search-sources__list">
          {servers.map((entry) => {
            const active = takesPart(entry)
            return (
              <li key={entry.server}>
                <label className="search-sources__server">
                  <input
                    type="checkbox"
                    checked={active && !excluded.has(entry.server)}
                    disabled={!active}
                    onChange={(event) => {
                      const next = new Set(excluded)
                      if (event.target.checked) next.delete(entry.server)
                      else next.add(entry.server)
                      onExcludedChange(next)
                    }}
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
          })}
        </ul>
        <p className="muted search-sources__hint">
          Leaving a server out applies to this panel only; the toggles on Servers are kept.
        </p>
      </Popover>
    </span>
  )
}
