import type { ServerDiscovery } from '#shared/model/operations'
import type { ServerSummary } from '#shared/model/server'
import { formatDateTime, plural } from '../../lib/format'
import { TimeAgo } from '../../lib/TimeAgo'
import { Badge, Button, cx, StatusBadge, Toggle } from '../../ui'
import { DoctorFact, type DoctorCardProps } from './DoctorFact'
import { OAuthRow } from './OAuthRow'
import { SearchableHint } from './SearchableHint'
import { ServerAdvice } from './ServerAdvice'
import { SourceList, type TokenActions } from './SourceList'
import {
  describeRateLimit,
  dialectBadge,
  hasLog,
  latencyText,
  oauthOf,
  sourceRows,
  statusLabel,
  whereOf,
  type Remedy,
} from './server-view'
import type { ServerActions } from './use-server-actions'

export interface ServerCardProps {
  id: string
  server: ServerSummary
  discovery: ServerDiscovery | undefined
  discovering: boolean
  remembered: Record<string, boolean> | undefined
  /** Names of the server's session-only tokens set in this session. */
  sessionTokens: readonly string[]
  highlighted: boolean
  actions: ServerActions
  onRemedy: (remedy: Remedy) => void
  onShowTools: () => void
  onShowLog: () => void
  token: TokenActions
  doctor: DoctorCardProps
}

/**
 * One server: what it is, its state and latency, what is wrong and what to do, the actions,
 * and its data sources with their toggles.
 */
export function ServerCard({
  id,
  server,
  discovery,
  discovering,
  remembered,
  sessionTokens,
  highlighted,
  actions,
  onRemedy,
  onShowTools,
  onShowLog,
  token,
  doctor,
}: ServerCardProps): React.JSX.Element {
  const rows = sourceRows(discovery, remembered, server, sessionTokens)
  return (
    <section
      id={id}
      aria-label={server.id}
      className={cx(
        'server-card',
        highlighted && 'server-card--focus',
        !server.enabled && 'server-card--off',
      )}
    >
      <div className="server-card__head">
        <h2 className="server-card__name">{server.id}</h2>
        <ServerBadges server={server} />
        <span className="server-card__spacer" />
        <CardActions
          server={server}
          actions={actions}
          doctor={doctor}
          onShowTools={onShowTools}
          onShowLog={onShowLog}
        />
      </div>
      <ServerFacts server={server} doctor={doctor} />
      <OAuthRow server={server.id} oauth={oauthOf(server)} actions={actions} />
      <ServerAdvice server={server} onRemedy={onRemedy} busy={actions.busy} />
      {server.enabled && <SearchableHint server={server} />}
      {server.enabled && server.visible && (
        <SourceList
          server={server.id}
          rows={rows}
          discovery={discovery}
          loading={discovering}
          showError={server.status.state === 'ready' || server.status.state === 'degraded'}
          busy={actions.busy.has(`sources:${server.id}`)}
          onChange={(sources) => void actions.setSources(server.id, sources)}
          token={token}
        />
      )}
    </section>
  )
}

/** The server's state, transport, dialect and whether the active profile may see it. */
function ServerBadges({ server }: { server: ServerSummary }) {
  const dialect = dialectBadge(server.dialect)
  return (
    <>
      <StatusBadge
        status={server.status.state}
        label={statusLabel(server.status)}
        title={`since ${formatDateTime(server.status.since)}`}
      />
      <Badge title="Transport">{server.transport}</Badge>
      <Badge tone={dialect.tone} title={dialect.title}>
        {dialect.text}
      </Badge>
      {!server.visible && (
        <Badge title="The active profile's groups may not see this server">
          hidden for this profile
        </Badge>
      )}
    </>
  )
}

/** Reconnect, the tools, Doctor, the log (servers the console runs) and the Enabled toggle. */
function CardActions({
  server,
  actions,
  doctor,
  onShowTools,
  onShowLog,
}: Pick<ServerCardProps, 'server' | 'actions' | 'doctor' | 'onShowTools' | 'onShowLog'>) {
  return (
    <div className="server-card__actions" role="group" aria-label={`Actions for ${server.id}`}>
      <Button
        icon="refresh"
        variant="ghost"
        busy={actions.busy.has(`reconnect:${server.id}`)}
        disabled={!server.enabled}
        onClick={() => void actions.reconnect(server.id)}
        aria-label={`Reconnect ${server.id}`}
      >
        Reconnect
      </Button>
      <Button
        variant="ghost"
        onClick={onShowTools}
        aria-label={`${plural(server.tools.length, 'tool')} of ${server.id}`}
      >
        {plural(server.tools.length, 'tool')}
      </Button>
      <Button
        variant="ghost"
        busy={doctor.running}
        disabled={!server.enabled}
        onClick={doctor.onRun}
        aria-label={`Doctor ${server.id}`}
        title="Check that the server keeps its family's contract, as the acting profile"
      >
        Doctor
      </Button>
      {hasLog(server) && (
        <Button variant="ghost" onClick={onShowLog} aria-label={`Log of ${server.id}`}>
          Log
        </Button>
      )}
      <Toggle
        checked={server.enabled}
        disabled={actions.busy.has(`enabled:${server.id}`)}
        onChange={(enabled) => void actions.setEnabled(server.id, enabled)}
        label="Enabled"
        ariaLabel={`Enabled ${server.id}`}
      />
    </div>
  )
}

/** The description and the facts: where it is, latency, last check, rate limit, Doctor. */
function ServerFacts({ server, doctor }: { server: ServerSummary; doctor: DoctorCardProps }) {
  const where = whereOf(server)
  return (
    <div className="server-card__meta">
      {server.description && <span className="server-card__description">{server.description}</span>}
      <dl className="server-card__facts">
        {where && (
          <div>
            <dt>{where.label}</dt>
            <dd>
              <code className="server-card__where" title={where.text}>
                {where.text}
              </code>
            </dd>
          </div>
        )}
        <div>
          <dt>p50 / p95</dt>
          <dd>{latencyText(server.latency)}</dd>
        </div>
        <div>
          <dt>Last check</dt>
          <dd>
            <TimeAgo at={server.lastCheckAt} />
          </dd>
        </div>
        <div>
          <dt>Rate limit</dt>
          <dd>{describeRateLimit(server.rateLimit) ?? '–'}</dd>
        </div>
        <DoctorFact server={server.id} doctor={doctor} />
      </dl>
    </div>
  )
}
