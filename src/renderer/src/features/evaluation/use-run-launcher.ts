import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { GoldenSetSummary } from '#shared/model/evaluation'
import { call } from '../../api'
import { useEvaluationRunSelected } from '../../state/store'
import { profileQueries } from '../profiles/queries'
import { searchQueries } from '../search/queries'
import { searchSelection, serverSources, sittingOut, takesPart } from '../search/sources'
import { addRunningRun, evalQueries } from './queries'
import { flipped, runButton, runRequest } from './run-launcher'
import { runPlan } from './run-plan'
import { useEvalAction } from './use-eval-action'

/**
 * What the run launcher reads and does: the servers that can take part (and those sitting
 * out), the profiles to run as, k, who runs what, and starting or cancelling a run.
 */
export function useRunLauncher(set: GoldenSetSummary) {
  const profiles = useQuery(profileQueries.list())
  const discovery = useQuery(searchQueries.discovery(profiles.data?.activeId))
  const toggles = useQuery(profileQueries.selection())
  const stored = useQuery(evalQueries.set(set.id))
  const selectRun = useEvaluationRunSelected()
  const queryClient = useQueryClient()
  const { busy, act } = useEvalAction()
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set())
  const [chosenProfiles, setChosenProfiles] = useState<readonly string[] | null>(null)
  const [k, setK] = useState(10)
  const [onlyTicked, setOnlyTicked] = useState(false)

  const all = useMemo(
    () => serverSources(discovery.data, toggles.data),
    [discovery.data, toggles.data],
  )
  const servers = useMemo(() => all.filter(takesPart), [all])
  const idle = useMemo(() => sittingOut(all), [all])
  const known = profiles.data?.profiles ?? []
  const asProfiles = chosenProfiles ?? (profiles.data ? [profiles.data.activeId] : [])
  const taking = servers.filter((s) => !excluded.has(s.server))
  const plan = stored.data ? runPlan(stored.data.queries, asProfiles, onlyTicked) : undefined

  return {
    finding: discovery.isPending,
    servers,
    idle,
    isExcluded: (server: string): boolean => excluded.has(server),
    flipServer: (server: string): void => setExcluded(new Set(flipped(excluded, server))),
    profiles: known,
    profileNames: new Map(known.map((p) => [p.id, p.name])),
    asProfiles,
    flipProfile: (id: string): void => setChosenProfiles(flipped(asProfiles, id)),
    k,
    setK,
    plan,
    onlyTicked,
    setOnlyTicked,
    busy,
    button: runButton({ set, servers: taking.length, profiles: asProfiles.length, plan }),
    start: (): void =>
      void act('run', `Could not start a run of ${set.name}.`, async () => {
        const selection = searchSelection(servers, excluded)
        const run = await call('eval:run', runRequest(set.id, k, asProfiles, selection, plan))
        addRunningRun(queryClient, run)
        selectRun(run.id)
      }),
    cancel: (runId: string): void =>
      void act('cancel', 'Could not cancel the run.', () => call('eval:cancel', { runId })),
  }
}

export type RunLaunching = ReturnType<typeof useRunLauncher>
