import { useId } from 'react'
import type { EvalRunSummary, GoldenSetSummary } from '#shared/model/evaluation'
import { listNames, plural } from '../../lib/format'
import { Button, Select } from '../../ui'
import { ImportRunButton } from './ImportRunButton'
import { progressText, sourceNames } from './run-launcher'
import type { RunPlan } from './run-plan'
import { useRunLauncher, type RunLaunching } from './use-run-launcher'

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
  const launcher = useRunLauncher(set)
  const { plan } = launcher
  return (
    <form
      className="eval-launcher"
      aria-label="Run a set"
      onSubmit={(event) => {
        event.preventDefault()
        if (!running) launcher.start()
      }}
    >
      <ServerChecks launcher={launcher} />
      <fieldset className="eval-launcher__group">
        <legend>As profiles</legend>
        {launcher.profiles.map((p) => (
          <label key={p.id} className="eval-check" title={p.userId}>
            <input
              type="checkbox"
              checked={launcher.asProfiles.includes(p.id)}
              onChange={() => launcher.flipProfile(p.id)}
            />
            {p.name}
          </label>
        ))}
      </fieldset>
      {plan && (
        <RunPlanNote
          plan={plan}
          names={launcher.profileNames}
          ticked={launcher.asProfiles}
          onlyTicked={launcher.onlyTicked}
          onOnlyTicked={launcher.setOnlyTicked}
        />
      )}
      <Select
        label="k"
        inline
        value={String(launcher.k)}
        options={K_OPTIONS}
        onChange={(v) => launcher.setK(Number(v))}
      />
      <div className="eval-launcher__go">
        <RunControls set={set} running={running} launcher={launcher} />
      </div>
    </form>
  )
}

/** The servers to run on, ticked by default; those sitting out, greyed with the reason. */
function ServerChecks({ launcher }: { launcher: RunLaunching }): React.JSX.Element {
  const id = useId()
  return (
    <fieldset className="eval-launcher__group">
      <legend>Servers</legend>
      {launcher.finding && <span className="muted">Finding servers…</span>}
      {launcher.servers.map((s) => (
        <label key={s.server} className="eval-check" title={sourceNames(s.selected)}>
          <input
            type="checkbox"
            checked={!launcher.isExcluded(s.server)}
            onChange={() => launcher.flipServer(s.server)}
          />
          {s.server}
        </label>
      ))}
      {launcher.idle.map((s) => (
        <label key={s.server} className="eval-check">
          <input type="checkbox" checked={false} disabled aria-describedby={`${id}-${s.server}`} />
          {s.server}
          <span id={`${id}-${s.server}`} className="muted">
            {' '}
            ({s.reason})
          </span>
        </label>
      ))}
    </fieldset>
  )
}

/**
 * Run (with Import run beside it); while a run is in flight its progress, and Cancel, or for a
 * run another process runs, where to stop it.
 */
function RunControls({
  set,
  running,
  launcher,
}: RunLauncherProps & { launcher: RunLaunching }): React.JSX.Element {
  const { busy, button } = launcher
  if (running?.external) {
    return (
      <>
        <RunProgress run={running} />
        <span className="muted">
          Run by another process{running.pid ? ` (pid ${running.pid})` : ''}, such as rag-console
          eval: stop it there (Ctrl-C)
        </span>
      </>
    )
  }
  if (running) {
    return (
      <>
        <RunProgress run={running} />
        <Button icon="close" busy={busy === 'cancel'} onClick={() => launcher.cancel(running.id)}>
          Cancel run
        </Button>
      </>
    )
  }
  return (
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
        disabled={button.disabled}
        title={button.title}
      >
        Run {set.name}
      </Button>
    </>
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

/** `12 of 31 · 2 failed calls` with a bar. */
function RunProgress({ run }: { run: EvalRunSummary }): React.JSX.Element {
  const text = progressText(run)
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
