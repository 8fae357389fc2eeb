import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import type { DoctorRun, ServerDoctorReport } from '../../../../shared/model/doctor'
import { call } from '../../api'
import { plural } from '../../lib/format'
import { useNoticePosted } from '../../state/store'
import { countChecks } from './doctor-view'
import { serverKeys, serverQueries } from './queries'

/** `running` holds this while "Run Doctor on all servers" runs. */
export const ALL_SERVERS = '*'

export interface DoctorActions {
  /** The last report of a server, if Doctor ever ran on it. */
  reportOf: (server: string) => ServerDoctorReport | undefined
  /** Servers Doctor runs on now ({@link ALL_SERVERS} for a run over every server). */
  running: ReadonlySet<string>
  /** Runs Doctor as the acting profile on one server, or on every enabled one. */
  run: (server?: string) => Promise<void>
}

/** Doctor from the Servers panel: the last reports (from main) and runs that replace them. */
export function useDoctor(): DoctorActions {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const last = useQuery(serverQueries.doctor())
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set())

  const run = useCallback(
    async (server?: string): Promise<void> => {
      const key = server ?? ALL_SERVERS
      setRunning((all) => new Set(all).add(key))
      try {
        const fresh = await call('doctor:run', server ? { servers: [server] } : {})
        queryClient.setQueryData<DoctorRun>(serverKeys.doctor(), (old) => ({
          servers: [
            ...(old?.servers ?? []).filter(
              (r) => !fresh.servers.some((f) => f.server === r.server),
            ),
            ...fresh.servers,
          ],
        }))
        if (!server) notify(summarize(fresh))
      } catch (error) {
        notify({
          tone: 'bad',
          message: `Doctor could not run on ${server ?? 'the servers'}.`,
          detail: (error as Error).message,
        })
      } finally {
        setRunning((all) => {
          const next = new Set(all)
          next.delete(key)
          return next
        })
      }
    },
    [queryClient, notify],
  )

  const reports = last.data?.servers
  const reportOf = useCallback(
    (server: string) => reports?.find((r) => r.server === server),
    [reports],
  )
  return { reportOf, running, run }
}

/** The notice after a run over every server: how many kept their contract. */
function summarize(run: DoctorRun) {
  const troubled = run.servers.filter((r) => r.error || countChecks(r).fail > 0)
  const message = `Doctor ran on ${plural(run.servers.length, 'server')}: ${
    troubled.length
      ? `${troubled.map((r) => r.server).join(', ')} failed or could not be checked.`
      : 'every one kept its contract.'
  }`
  return { tone: troubled.length ? ('warn' as const) : ('ok' as const), message }
}
