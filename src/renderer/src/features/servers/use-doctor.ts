import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import type { DoctorRun, ServerDoctorReport } from '#shared/model/doctor'
import { call, subscribe } from '../../api'
import { plural } from '../../lib/format'
import { useNoticePosted } from '../../state/store'
import { countChecks } from './doctor-view'
import { serverKeys, serverQueries } from './queries'

/** The target of "Run Doctor on all servers". */
export const ALL_SERVERS = '*'

/** A run this panel started: on one server, or {@link ALL_SERVERS}; `done` its servers so far. */
interface PanelRun {
  target: string
  done: ReadonlySet<string>
}

export interface DoctorActions {
  /** The last report of a server, if Doctor ever ran on it. */
  reportOf: (server: string) => ServerDoctorReport | undefined
  /** Whether a run still has to report on this server ({@link ALL_SERVERS}: a run over all). */
  isRunning: (server: string) => boolean
  /** Runs Doctor as the acting profile on one server, or on every enabled one. */
  run: (server?: string) => Promise<void>
  /** Cancels the run on one server, or the run over all; servers done by then keep their report. */
  cancel: (server?: string) => void
}

/** Puts fresh reports in place of the servers' older ones. */
const withReports =
  (fresh: ServerDoctorReport[]) =>
  (old: DoctorRun | undefined): DoctorRun => ({
    servers: [
      ...(old?.servers ?? []).filter((r) => !fresh.some((f) => f.server === r.server)),
      ...fresh,
    ],
  })

/**
 * Doctor from the Servers panel: the last reports (from main), runs that replace them server by
 * server as `doctor:progress` reports arrive, and cancelling a run.
 */
export function useDoctor(): DoctorActions {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const last = useQuery(serverQueries.doctor())
  const [runs, setRuns] = useState<ReadonlyMap<string, PanelRun>>(new Map())

  const updateRun = useCallback(
    (runId: string, change: (run: PanelRun) => PanelRun | undefined) =>
      setRuns((all) => {
        const run = all.get(runId)
        if (!run) return all
        const next = new Map(all)
        const changed = change(run)
        if (changed) next.set(runId, changed)
        else next.delete(runId)
        return next
      }),
    [],
  )

  useEffect(
    () =>
      subscribe('doctor:progress', ({ runId, report }) => {
        queryClient.setQueryData<DoctorRun>(serverKeys.doctor(), withReports([report]))
        updateRun(runId, (run) => ({ ...run, done: new Set(run.done).add(report.server) }))
      }),
    [queryClient, updateRun],
  )

  const run = useCallback(
    async (server?: string): Promise<void> => {
      const target = server ?? ALL_SERVERS
      const runId = crypto.randomUUID()
      setRuns((all) => new Map(all).set(runId, { target, done: new Set() }))
      try {
        const fresh = await call('doctor:run', { runId, ...(server ? { servers: [server] } : {}) })
        queryClient.setQueryData<DoctorRun>(serverKeys.doctor(), withReports(fresh.servers))
        if (!server) notify(fresh.cancelled ? cancelled(fresh) : summarize(fresh))
      } catch (error) {
        notify({
          tone: 'bad',
          message: `Doctor could not run on ${server ?? 'the servers'}.`,
          detail: (error as Error).message,
        })
      } finally {
        updateRun(runId, () => undefined)
      }
    },
    [queryClient, notify, updateRun],
  )

  const cancel = useCallback(
    (server?: string) => {
      const target = server ?? ALL_SERVERS
      for (const [runId, panelRun] of runs) {
        if (panelRun.target !== target) continue
        call('doctor:cancel', { runId }).catch((error: unknown) =>
          notify({
            tone: 'bad',
            message: 'Doctor could not be cancelled.',
            detail: (error as Error).message,
          }),
        )
      }
    },
    [runs, notify],
  )

  const isRunning = useCallback(
    (server: string) =>
      [...runs.values()].some((panelRun) =>
        server === ALL_SERVERS
          ? panelRun.target === ALL_SERVERS
          : (panelRun.target === server || panelRun.target === ALL_SERVERS) &&
            !panelRun.done.has(server),
      ),
    [runs],
  )

  const reports = last.data?.servers
  const reportOf = useCallback(
    (server: string) => reports?.find((r) => r.server === server),
    [reports],
  )
  return { reportOf, isRunning, run, cancel }
}

/** The notice after a cancelled run over every server. */
const cancelled = (run: DoctorRun) => ({
  tone: 'warn' as const,
  message: `Doctor cancelled: ${plural(run.servers.length, 'server')} checked; the others keep their last result.`,
})

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
