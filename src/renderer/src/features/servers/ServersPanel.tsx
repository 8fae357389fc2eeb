import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { ServerState, ServerSummary } from '#shared/model/server'
import { call } from '../../api'
import { plural } from '../../lib/format'
import { useNavigationRequested, useSecretsRequested, useServersFocus } from '../../state/store'
import { Banner, Button, EmptyState, Spinner, STATUSES, StatusBadge } from '../../ui'
import { profileQueries } from '../profiles/queries'
import { DeleteSecretDialog } from '../secrets/DeleteSecretDialog'
import { secretQueries } from '../secrets/queries'
import type { SecretTarget } from '../secrets/secret-target'
import { SecretValueDialog } from '../secrets/SecretValueDialog'
import { DoctorDialog } from './DoctorDialog'
import { GroupedServerList } from './GroupedServerList'
import { LogDialog } from './LogDialog'
import { serverKeys, serverQueries } from './queries'
import { ServerCard } from './ServerCard'
import { ServerFilterBar } from './ServerFilterBar'
import { connectProgress } from './server-groups'
import type { Remedy } from './server-view'
import { ToolsDialog } from './ToolsDialog'
import { useServerGrouping } from './use-server-grouping'
import { ALL_SERVERS, useDoctor } from './use-doctor'
import { useEnablePreview } from './use-enable-preview'
import { useServerActions } from './use-server-actions'
import './ServersPanel.css'

const STATE_ORDER: ServerState[] = [
  'ready',
  'degraded',
  'connecting',
  'action_required',
  'down',
  'disabled',
]

/**
 * Every configured server: status, latency, the last error and what to do, actions, and its
 * data sources with the toggles Search uses. Events from main keep it current.
 */
export function ServersPanel(): React.JSX.Element {
  const queryClient = useQueryClient()
  // Status arrives as events; latency and the last probe change quietly, so read them again.
  const list = useQuery({ ...serverQueries.list(), refetchInterval: 15_000 })
  const profiles = useQuery(profileQueries.list())
  const discovery = useQuery(serverQueries.discovery(profiles.data?.activeId))
  const selection = useQuery(profileQueries.selection())
  const sessionTokens = useQuery(secretQueries.session())
  // A person asked: not automatic in the audit log, unlike the query's own fetches.
  const rediscover = useMutation({
    mutationFn: () => call('discovery:run'),
    onSuccess: (result) =>
      queryClient.setQueryData(serverKeys.discovery(profiles.data?.activeId ?? ''), result),
  })
  const focus = useServersFocus()
  const secretsRequested = useSecretsRequested()
  const navigationRequested = useNavigationRequested()
  const serverActions = useServerActions()
  const enabling = useEnablePreview(serverActions)
  const actions = { ...serverActions, setEnabled: enabling.setEnabled }
  const [tools, setTools] = useState<string | null>(null)
  const [log, setLog] = useState<string | null>(null)
  const doctor = useDoctor()
  const [doctorOf, setDoctorOf] = useState<string | null>(null)
  const [giving, setGiving] = useState<SecretTarget | null>(null)
  const [clearing, setClearing] = useState<SecretTarget | null>(null)

  const { groups, groupBy, bar } = useServerGrouping(list.data ?? NO_SERVERS, idOf)
  const discovered = useMemo(
    () => new Map((discovery.data?.servers ?? []).map((d) => [d.server, d])),
    [discovery.data],
  )

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
  const progress = connectProgress(list.data)
  const counts = new Map<ServerState, number>()
  for (const s of list.data) counts.set(s.status.state, (counts.get(s.status.state) ?? 0) + 1)

  const tokensOf = (server: string): string[] =>
    (sessionTokens.data ?? []).filter((t) => t.server === server).map((t) => t.name)

  const remedy = (server: string, what: Remedy): void => {
    if (what === 'set-secrets') secretsRequested(server)
    else if (what === 'reconnect') void actions.reconnect(server)
    else if (what === 'enable') void actions.setEnabled(server, true)
    else if (what === 'show-log') setLog(server)
    else navigationRequested('health')
  }

  return (
    <div className="servers">
      <div className="servers__head">
        <h1 tabIndex={-1}>Servers</h1>
        <p className="servers__counts" aria-label="Servers by status">
          <span className="muted">
            {shown === list.data.length
              ? plural(list.data.length, 'server')
              : `${shown} of ${plural(list.data.length, 'server')} shown`}
          </span>
          {STATE_ORDER.filter((state) => counts.has(state)).map((state) => (
            <StatusBadge
              key={state}
              status={state}
              label={`${counts.get(state)} ${STATUSES[state].label}`}
            />
          ))}
        </p>
        <span className="servers__progress muted" role="status">
          {progress.done
            ? `${progress.tried} of ${progress.total} connected or tried`
            : `Connecting ${progress.tried} of ${progress.total}…`}
        </span>
        <span className="servers__spacer" />
        <ServerFilterBar label="Filter servers" {...bar} />
        <Button
          icon="refresh"
          busy={discovery.isFetching || rediscover.isPending}
          onClick={() => rediscover.mutate()}
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
      {(discovery.isError || rediscover.isError) && (
        <Banner tone="bad" title="Could not ask the servers for their data sources">
          {(rediscover.error ?? discovery.error)?.message}
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
          headers={groupBy !== 'none'}
          focus={focus}
          renderServer={(server) => (
            <ServerCard
              key={server.id}
              id={cardId(server.id)}
              server={server}
              discovery={discovered.get(server.id)}
              discovering={discovery.isFetching || rediscover.isPending}
              remembered={selection.data?.[server.id]}
              sessionTokens={tokensOf(server.id)}
              highlighted={focus === server.id}
              actions={actions}
              onRemedy={(what) => remedy(server.id, what)}
              onShowTools={() => setTools(server.id)}
              onShowLog={() => setLog(server.id)}
              doctor={{
                report: doctor.reportOf(server.id),
                running: server.enabled && doctor.isRunning(server.id),
                onRun: () => {
                  setDoctorOf(server.id)
                  void doctor.run(server.id)
                },
                onShow: () => setDoctorOf(server.id),
              }}
              token={{
                // Capability tokens are session tokens named after their source.
                onGive: (name) =>
                  setGiving({ server: server.id, name, kind: 'session', present: false }),
                onClear: (name) =>
                  setClearing({ server: server.id, name, kind: 'session', present: true }),
              }}
            />
          )}
        />
      )}
      <ToolsDialog server={tools} onClose={() => setTools(null)} />
      <LogDialog server={log} onClose={() => setLog(null)} />
      <DoctorDialog
        server={doctorOf}
        report={doctorOf ? doctor.reportOf(doctorOf) : undefined}
        running={doctorOf !== null && doctor.isRunning(doctorOf)}
        onRun={() => doctorOf && void doctor.run(doctorOf)}
        onCancel={() => {
          if (!doctorOf) return
          doctor.cancel(doctorOf)
          if (doctor.isRunning(ALL_SERVERS)) doctor.cancel()
        }}
        onClose={() => setDoctorOf(null)}
      />
      {enabling.dialog}
      <SecretValueDialog target={giving} onClose={() => setGiving(null)} />
      <DeleteSecretDialog target={clearing} onClose={() => setClearing(null)} />
    </div>
  )
}

const NO_SERVERS: ServerSummary[] = []
const idOf = (server: ServerSummary): string => server.id
const cardId = (server: string): string => `server-${encodeURIComponent(server)}`
