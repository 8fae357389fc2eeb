import type { ServerSummary } from '#shared/model/server'
import { Banner, Button, EmptyState, Spinner, STATUSES, StatusBadge } from '../../ui'
import { DeleteSecretDialog } from '../secrets/DeleteSecretDialog'
import { SecretValueDialog } from '../secrets/SecretValueDialog'
import { DoctorDialog } from './DoctorDialog'
import { GroupedServerList } from './GroupedServerList'
import { LogDialog } from './LogDialog'
import { ServerCard } from './ServerCard'
import { ServerFilterBar, type ServerFilterBarProps } from './ServerFilterBar'
import { connectProgress } from './server-groups'
import { cardId, progressLine, shownLine, stateCounts } from './servers-panel'
import { ToolsDialog } from './ToolsDialog'
import { ALL_SERVERS, type DoctorActions } from './use-doctor'
import { useServersPanel } from './use-servers-panel'
import './ServersPanel.css'

/**
 * Every configured server: status, latency, the last error and what to do, actions, and its
 * data sources with the toggles Search uses. Events from main keep it current.
 */
export function ServersPanel(): React.JSX.Element {
  const panel = useServersPanel()
  const { list, doctor, doctorOf, focus, groups } = panel

  if (list.isPending) return <Spinner label="Loading the servers…" className="servers__loading" />
  if (list.isError) {
    return (
      <div className="servers">
        <Banner tone="bad" title="Cannot list the servers">
          {list.error.message}
        </Banner>
      </div>
    )
  }

  const shown = groups.reduce((sum, group) => sum + group.items.length, 0)
  return (
    <div className="servers">
      <ServersHead
        servers={list.data}
        shown={shown}
        bar={panel.bar}
        discovering={panel.discovering}
        onRediscover={panel.rediscover}
        doctor={doctor}
      />
      {panel.discoveryError && (
        <Banner tone="bad" title="Could not ask the servers for their data sources">
          {panel.discoveryError.message}
        </Banner>
      )}
      {shown === 0 ? (
        <EmptyState
          icon="servers"
          title={
            list.data.length === 0 ? 'No servers in the registry' : 'Nothing matches the filter'
          }
        >
          {list.data.length === 0
            ? 'Add servers to rag-mcp.json in Config (or import them from another MCP client).'
            : null}
        </EmptyState>
      ) : (
        <GroupedServerList
          groups={groups}
          headers={panel.groupBy !== 'none'}
          focus={focus}
          renderServer={(server) => (
            <ServerCard
              key={server.id}
              id={cardId(server.id)}
              server={server}
              discovery={panel.discovered.get(server.id)}
              discovering={panel.discovering}
              remembered={panel.remembered?.[server.id]}
              sessionTokens={panel.tokensOf(server.id)}
              highlighted={focus === server.id}
              actions={panel.actions}
              onRemedy={(what) => panel.remedy(server.id, what)}
              onShowTools={() => panel.setTools(server.id)}
              onShowLog={() => panel.setLog(server.id)}
              doctor={{
                report: doctor.reportOf(server.id),
                running: server.enabled && doctor.isRunning(server.id),
                onRun: () => panel.runDoctor(server.id),
                onShow: () => panel.showDoctor(server.id),
              }}
              token={{
                // Capability tokens are session tokens named after their source.
                onGive: (name) =>
                  panel.setGiving({ server: server.id, name, kind: 'session', present: false }),
                onClear: (name) =>
                  panel.setClearing({ server: server.id, name, kind: 'session', present: true }),
              }}
            />
          )}
        />
      )}
      <ToolsDialog server={panel.tools} onClose={() => panel.setTools(null)} />
      <LogDialog server={panel.log} onClose={() => panel.setLog(null)} />
      <DoctorDialog
        server={doctorOf}
        report={doctorOf ? doctor.reportOf(doctorOf) : undefined}
        running={doctorOf !== null && doctor.isRunning(doctorOf)}
        onRun={() => doctorOf && void doctor.run(doctorOf)}
        onCancel={panel.cancelDoctor}
        onClose={() => panel.showDoctor(null)}
      />
      {panel.enableDialog}
      <SecretValueDialog target={panel.giving} onClose={() => panel.setGiving(null)} />
      <DeleteSecretDialog target={panel.clearing} onClose={() => panel.setClearing(null)} />
    </div>
  )
}

/** The heading, the counts by status, how far connecting has come, the filter and the runs. */
function ServersHead({
  servers,
  shown,
  bar,
  discovering,
  onRediscover,
  doctor,
}: {
  servers: readonly ServerSummary[]
  shown: number
  bar: Omit<ServerFilterBarProps, 'label'>
  discovering: boolean
  onRediscover: () => void
  doctor: DoctorActions
}): React.JSX.Element {
  return (
    <div className="servers__head">
      <h1 tabIndex={-1}>Servers</h1>
      <p className="servers__counts" aria-label="Servers by status">
        <span className="muted">{shownLine(shown, servers.length)}</span>
        {stateCounts(servers).map(({ state, count }) => (
          <StatusBadge key={state} status={state} label={`${count} ${STATUSES[state].label}`} />
        ))}
      </p>
      <span className="servers__progress muted" role="status">
        {progressLine(connectProgress(servers))}
      </span>
      <span className="servers__spacer" />
      <ServerFilterBar label="Filter servers" {...bar} />
      <Button
        icon="refresh"
        busy={discovering}
        onClick={onRediscover}
        title="Ask every server for its data sources again"
      >
        Rediscover
      </Button>
      {doctor.isRunning(ALL_SERVERS) ? (
        <Button
          icon="close"
          onClick={() => doctor.cancel()}
          title="Stop Doctor; the servers checked so far keep their new report"
        >
          Cancel Doctor
        </Button>
      ) : (
        <Button
          onClick={() => void doctor.run()}
          title="Check every enabled server against its family's contract, as the acting profile"
        >
          Run Doctor on all servers
        </Button>
      )}
    </div>
  )
}
