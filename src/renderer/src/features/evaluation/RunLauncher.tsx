import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useMemo, useState } from 'react'
import type { EvalRunSummary, GoldenSetSummary } from '#shared/model/evaluation'
import { call } from '../../api'
import { listNames, plural } from '../../lib/format'
import { useEvaluationRunSelected } from '../../state/store'
import { Button, Select } from '../../ui'
import { ImportRunButton } from './ImportRunButton'
import { profileQueries } from '../profiles/queries'
import { searchQueries } from '../search/queries'
import { searchSelection, serverSources, sittingOut, takesPart } from '../search/sources'
import { addRunningRun, evalQueries } from './queries'
import { runPlan, type RunPlan } from './run-plan'
import { useEvalAction } from './use-eval-action'

const K_OPTIONS = [5, 10, 20, 50].map((k) => ({ value: String(k), label: String(k) }))

export interface RunLauncherProps {
  set: GoldenSetSummary
  /** The set's run in progress, if any: its progress and Cancel replace Run. */
  running: EvalRunSummary | undefined
}

/**
 * Runs a set on the chosen servers (with their selected sources) as the chosen profiles, keeping
 * the top k; shows the progress of the run in flight and cancels it.
 */
export function RunLauncher({ set, running }: RunLauncherProps): React.JSX.Element {
  const profiles = useQuery(profileQueries.list())
  const discovery = useQuery(searchQueries.discovery(profiles.data?.activeId))
  const toggles = useQuery(profileQueries.selection())
  const selectRun = useEvaluationRunSelected()
  const queryClient = useQueryClient()
  const { busy, act } = useEvalAction()
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set())
  const [chosenProfiles, setChosenProfiles] = useState<readonly string[] | null>(null)
  const [k, setK] = useState(10)
  const [onlyTicked, setOnlyTicked] = useState(false)
  const id = useId()
  const stored = useQuery(evalQueries.set(set.id))

  const all = useMemo(
    () => serverSources(discovery.data, toggles.data),
    [discovery.data, toggles.data],
  )
  const servers = useMemo(() => all.filter(takesPart), [all])
  const idle = useMemo(() => sittingOut(all), [all])
  const asProfiles = chosenProfiles ?? (profiles.data ? [profiles.data.activeId] : [])
  const taking = servers.filter((s) => !excluded.has(s.server))
  const plan = stored.data ? runPlan(stored.data.queries, asProfiles, onlyTicked) : undefined
  const flip = <T,>(list: Iterable<T>, item: T): T[] => {
    const next = new Set(list)
    if (!next.delete(item)) next.add(item)
    return [...next]
  }
  const start = (): void =>
    void act('run', `Could not start a run of ${set.name}.`, async () => {
      const selection = searchSelection(servers, excluded)
      const run = await call('eval:run', {
        setId: set.id,
        k,
        profiles: [...asProfiles],
        ...(selection ? { selection } : {}),
        ...(plan?.queryIds ? { queryIds: plan.queryIds } : {}),
      })
      addRunningRun(queryClient, run)
      selectRun(run.id)
    })

  return (
    <form
      className="eval-launcher"
      aria-label="Run a set"
      onSubmit={(event) => {
        event.preventDefault()
        if (!running) start()
      }}
    >
      <fieldset className="eval-launcher__group">
        <legend>Servers</legend>
        {discovery.isPending && <span className="muted">Finding servers…</span>}
        {servers.map((s) => (
          <label key={s.server} className="eval-check" title={sourceNames(s.selected)}>
            <input
              type="checkbox"
              checked={!excluded.has(s.server)}
              onChange={() => setExcluded(new Set(flip(excluded, s.server)))}
            />
            {s.server}
          </label>
        ))}
        {idle.map((s) => (
          <label key={s.server} className="eval-check">
            <input
              type="checkbox"
              checked={false}
              disabled
              aria-describedby={`${id}-${s.server}`}
            />
            {s.server}
            <span id={`${id}-${s.server}`} className="muted">
              {' '}
              ({s.reason})
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="eval-launcher__group">
        <legend>As profiles</legend>
        {(profiles.data?.profiles ?? []).map((p) => (
          <label key={p.id} className="eval-check" title={p.userId}>
            <input
              type="checkbox"
              checked={asProfiles.includes(p.id)}
              onChange={() => setChosenProfiles(flip(asProfiles, p.id))}
            />
            {p.name}
          </label>
        ))}
      </fieldset>
      {plan && (
        <RunPlanNote
          plan={plan}
          names={new Map((profiles.data?.profiles ?? []).map((p) => [p.id, p.name]))}
          ticked={asProfiles}
          onlyTicked={onlyTicked}
          onOnlyTicked={setOnlyTicked}
        />
      )}
      <Select
        label="k"
        inline
        value={String(k)}
        options={K_OPTIONS}
        onChange={(v) => setK(Number(v))}
      />
      <div className="eval-launcher__go">
        {running?.external ? (
          <>
            <RunProgress run={running} />
            <span className="muted">
              Run by another process{running.pid ? ` (pid ${running.pid})` : ''}, such as
              rag-console eval: stop it there (Ctrl-C)
            </span>
          </>
        ) : running ? (
          <>
            <RunProgress run={running} />
            <Button
              icon="close"
              busy={busy === 'cancel'}
              onClick={() =>
                void act('cancel', 'Could not cancel the run.', () =>
                  call('eval:cancel', { runId: running.id }),
                )
              }
            >
              Cancel run
            </Button>
          </>
        ) : (
          <>
            {busy === 'run' && (
              <span role="status" className="muted">
                Starting: finding each profile's sources…
              </span>
            )}
            <ImportRunButton set={set} />
            <Button
              type="submit"
              variant="primary"
              icon="play"
              busy={busy === 'run'}
              disabled={
                taking.length === 0 ||
                asProfiles.length === 0 ||
                set.queryCount === 0 ||
                plan?.searches === 0
              }
              title={
                set.queryCount === 0
                  ? 'The set has no queries'
                  : taking.length === 0
                    ? 'Choose a server'
                    : asProfiles.length === 0
                      ? 'Choose a profile'
                      : `${plural(plan?.searches ?? set.queryCount, 'search', 'searches')} on ${plural(taking.length, 'server')}`
              }
            >
              Run {set.name}
            </Button>
          </>
        )}
      </div>
    </form>
  )
}

/**
 * Who the run's queries run as, said before it starts: the queries pinned to a profile run as
 * that profile whatever is ticked, unless the run is kept to the ticked profiles.
 */
function RunPlanNote({
  plan,
  names,
  ticked,
  onlyTicked,
  onOnlyTicked,
}: {
  plan: RunPlan
  names: ReadonlyMap<string, string>
  ticked: readonly string[]
  onlyTicked: boolean
  onOnlyTicked: (only: boolean) => void
}): React.JSX.Element | null {
  if (plan.pinned.length === 0) return null
  const name = (id: string): string => names.get(id) ?? id
  const elsewhere = plan.pinned.filter((p) => !p.ticked)
  const skipped = elsewhere.reduce((sum, p) => sum + p.queries, 0)
  const pinnedCount = plan.pinned.reduce((sum, p) => sum + p.queries, 0)
  return (
    <p className="eval-plan" role="note" aria-label="Who the queries run as">
      <span>
        {plural(plan.free, 'query', 'queries')} {plan.free === 1 ? 'runs' : 'run'} as{' '}
        {ticked.length > 0 ? listNames(ticked.map(name), 3) : 'the ticked profiles'}.{' '}
        {plural(pinnedCount, 'query is', 'queries are')} pinned to a profile and{' '}
        {onlyTicked && skipped > 0 ? 'run as it, if ticked' : 'always run as it'}:{' '}
        {plan.pinned.map((p) => `${name(p.profileId)} ${p.queries}`).join(', ')}.
      </span>
      {elsewhere.length > 0 && (
        <label className="eval-check">
          <input
            type="checkbox"
            checked={onlyTicked}
            onChange={(event) => onOnlyTicked(event.target.checked)}
          />
          Only as the ticked profiles (leave out {plural(skipped, 'query', 'queries')} pinned to{' '}
          {listNames(
            elsewhere.map((p) => name(p.profileId)),
            3,
          )}
          )
        </label>
      )}
    </p>
  )
}

const sourceNames = (sources: readonly { name: string }[]): string =>
  sources.length > 0 ? `Sources: ${sources.map((s) => s.name).join(', ')}` : 'Default sources'

/** `12 of 31 · 2 failed calls` with a bar. */
function RunProgress({ run }: { run: EvalRunSummary }): React.JSX.Element {
  const text = `${run.done} of ${run.total} queries${run.failures > 0 ? ` · ${plural(run.failures, 'failed call')}` : ''}`
  return (
    <span className="eval-progress">
      <progress
        aria-label="Run progress"
        aria-valuetext={text}
        max={Math.max(1, run.total)}
        value={run.done}
      />
      <span role="status">{text}</span>
    </span>
  )
}
