import type { EvalRunStatus, EvalRunSummary } from '#shared/model/evaluation'
import { call } from '../../api'
import { formatDateTime, plural } from '../../lib/format'
import { Badge, EmptyRow, IconButton, Table, type Tone } from '../../ui'
import { useEvalAction } from './use-eval-action'
import { RowPick } from './RowPick'

const STATUS_TONES: Record<EvalRunStatus, Tone> = {
  running: 'info',
  done: 'ok',
  cancelled: 'warn',
  failed: 'bad',
}

/** `2026-03-01 14:03:27`: when a run started. */
export const runTime = (run: EvalRunSummary): string => formatDateTime(Date.parse(run.startedAt))

export interface RunHistoryProps {
  runs: readonly EvalRunSummary[]
  selected: string | undefined
  onSelect: (runId: string) => void
}

/** The set's stored runs, newest first: when, how far, how many calls failed, on what. */
export function RunHistory({ runs, selected, onSelect }: RunHistoryProps): React.JSX.Element {
  const { act } = useEvalAction()
  return (
    <Table label="Run history" scroll className="eval-history">
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Status</th>
          <th scope="col" className="num">
            Queries
          </th>
          <th scope="col" className="num" title="Calls to a provider that failed">
            Failed
          </th>
          <th scope="col">Servers · profiles</th>
          <th scope="col" className="num">
            k
          </th>
          <th scope="col" className="actions">
            <span className="visually-hidden">Delete</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {runs.length === 0 && <EmptyRow colSpan={7}>No runs of this set yet.</EmptyRow>}
        {runs.map((run) => (
          <tr key={run.id} className={run.id === selected ? 'eval-row--selected' : undefined}>
            <td>
              <RowPick picked={run.id === selected} onPick={() => onSelect(run.id)}>
                {runTime(run)}
              </RowPick>
            </td>
            <td>
              <Badge tone={STATUS_TONES[run.status]} dot title={run.error?.message}>
                {run.imported ? 'imported' : run.status}
              </Badge>
            </td>
            <td className="num">
              {run.done} / {run.total}
            </td>
            <td className="num">{run.failures}</td>
            <td
              className="eval-cell--text"
              title={`${run.servers.join(', ')} as ${run.profiles.join(', ')}`}
            >
              {plural(run.servers.length, 'server')} · {run.profiles.join(', ')}
            </td>
            <td className="num">{run.k}</td>
            <td className="actions">
              <IconButton
                icon="trash"
                label={`Delete the run of ${runTime(run)}`}
                disabled={run.status === 'running'}
                onClick={() =>
                  void act('delete', 'Could not delete the run.', () =>
                    call('eval:run:delete', { runId: run.id }),
                  )
                }
              />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  )
}
