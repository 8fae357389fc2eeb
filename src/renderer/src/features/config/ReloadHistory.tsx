import { useQuery } from '@tanstack/react-query'
import type { ReloadCanary, ReloadEvent, ReloadTrigger } from '#shared/model/registry'
import { formatDateTime, plural } from '../../lib/format'
import { Badge, Banner, EmptyState, Icon, Spinner, StatusBadge } from '../../ui'
import { DiagnosticList } from './DiagnosticList'
import { registryQueries } from './queries'
import { diffCounts, ServerDiff } from './ServerDiff'
import './ReloadHistory.css'

const TRIGGERS: Record<ReloadTrigger, string> = {
  startup: 'startup',
  watch: 'file changed',
  manual: 'reload now',
  save: 'saved in the app',
  import: 'import',
}

/**
 * The last 50 reloads, newest first: when, why, outcome, and the diff or the diagnostics.
 * Self-contained (its own query), so the Health panel can show it too.
 */
export function ReloadHistory(): React.JSX.Element {
  const history = useQuery(registryQueries.history())
  if (history.isPending) return <Spinner label="Loading the reload history…" />
  if (history.isError) {
    return (
      <Banner tone="bad" title="Cannot load the reload history">
        {history.error.message}
      </Banner>
    )
  }
  if (history.data.length === 0) {
    return (
      <EmptyState icon="history" title="No reloads yet">
        Every reload of rag-mcp.json (at startup, on a change on disk, on save) is listed here.
      </EmptyState>
    )
  }
  return (
    <div className="history">
      <p className="muted">
        {history.data.length === 1
          ? 'One reload so far. Open it to see what it changed.'
          : `The last ${history.data.length} reloads, newest first. Open one to see what it changed.`}
      </p>
      <ol className="history__list" aria-label="Reload history">
        {history.data.map((event) => (
          <li key={`${event.at}:${event.trigger}`}>
            <HistoryEntry event={event} />
          </li>
        ))}
      </ol>
    </div>
  )
}

function HistoryEntry({ event }: { event: ReloadEvent }): React.JSX.Element {
  const errors = event.diagnostics?.filter((d) => d.severity === 'error') ?? []
  const regressions = event.canaries?.filter((c) => c.regression).length ?? 0
  return (
    <details className="history__entry">
      <summary className="history__summary">
        <Icon name="chevronRight" className="history__chevron" />
        <span className="history__time">{formatDateTime(event.at)}</span>
        <span className="history__trigger">{TRIGGERS[event.trigger]}</span>
        <StatusBadge status={event.outcome} />
        <span className="history__what">
          {event.outcome === 'invalid'
            ? plural(errors.length, 'error')
            : event.diff
              ? diffCounts(event.diff)
              : ''}
          {regressions > 0 && (
            <Badge tone="bad" className="history__regression">
              {plural(regressions, 'canary regression')}
            </Badge>
          )}
        </span>
        <span className="history__duration">{event.durationMs.toFixed(1)} ms</span>
      </summary>
      <div className="history__body">
        {event.diff && <ServerDiff diff={event.diff} maxUnchanged={10} />}
        {event.canaries && event.canaries.length > 0 && <CanaryList canaries={event.canaries} />}
        {event.diagnostics && event.diagnostics.length > 0 && (
          <DiagnosticList diagnostics={event.diagnostics} />
        )}
        <p className="muted">Source: {event.source.label}</p>
      </div>
    </details>
  )
}

/** The canaries of the servers this reload added or changed, as they ran right after it. */
function CanaryList({ canaries }: { canaries: ReloadCanary[] }): React.JSX.Element {
  return (
    <section aria-label="Canaries after this reload">
      <h4 className="history__heading">Canaries after this reload</h4>
      <ul className="history__canaries">
        {canaries.map((c) => (
          <li key={`${c.server}:${c.canary}`} className="history__canary">
            <Badge tone={c.passed ? 'ok' : 'bad'} dot>
              {c.passed ? 'pass' : c.regression ? 'regression' : 'fail'}
            </Badge>
            <span>
              <strong>{c.server}</strong> “{c.canary}”
              {c.failures.length > 0 && <span className="muted"> — {c.failures.join('; ')}</span>}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
