import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { ServerSummary } from '#shared/model/server'
import { call } from '../../api'
import { useNavigationRequested, useSecretsRequested, useServersFocus } from '../../state/store'
import { profileQueries } from '../profiles/queries'
import { secretQueries } from '../secrets/queries'
import type { SecretTarget } from '../secrets/secret-target'
import { serverKeys, serverQueries } from './queries'
import type { Remedy } from './server-view'
import { tokenNamesOf } from './servers-panel'
import { ALL_SERVERS, useDoctor } from './use-doctor'
import { useEnablePreview } from './use-enable-preview'
import { useServerActions } from './use-server-actions'
import { useServerGrouping } from './use-server-grouping'

const NO_SERVERS: ServerSummary[] = []
const idOf = (server: ServerSummary): string => server.id

/**
 * What the Servers panel reads and does: the servers and their discovered sources, the actions
 * on them, Doctor, and which dialog is open (tools, log, Doctor report, a session token).
 */
export function useServersPanel() {
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

  const remedy = (server: string, what: Remedy): void => {
    if (what === 'set-secrets') secretsRequested(server)
    else if (what === 'reconnect') void actions.reconnect(server)
    else if (what === 'enable') void actions.setEnabled(server, true)
    else if (what === 'show-log') setLog(server)
    else navigationRequested('health')
  }

  return {
    list,
    discovered,
    discovering: discovery.isFetching || rediscover.isPending,
    discoveryError:
      discovery.isError || rediscover.isError ? (rediscover.error ?? discovery.error) : null,
    rediscover: (): void => rediscover.mutate(),
    remembered: selection.data,
    tokensOf: (server: string): string[] => tokenNamesOf(sessionTokens.data ?? [], server),
    focus,
    groups,
    groupBy,
    bar,
    actions,
    remedy,
    enableDialog: enabling.dialog,
    doctor,
    doctorOf,
    showDoctor: setDoctorOf,
    runDoctor: (server: string): void => {
      setDoctorOf(server)
      void doctor.run(server)
    },
    /** Stops Doctor on the server whose report is open, and a run on all servers with it. */
    cancelDoctor: (): void => {
      if (!doctorOf) return
      doctor.cancel(doctorOf)
      if (doctor.isRunning(ALL_SERVERS)) doctor.cancel()
    },
    tools,
    setTools,
    log,
    setLog,
    giving,
    setGiving,
    clearing,
    setClearing,
  }
}
