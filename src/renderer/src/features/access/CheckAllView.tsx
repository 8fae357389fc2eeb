import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { AccessTargetInput } from '#shared/ipc/rag'
import type { AccessCheck, LinkVerdict } from '#shared/model/rag'
import { subscribe } from '../../api'
import { plural } from '../../lib/format'
import { Badge, Banner, Button, Spinner, TextField, VirtualTable, type Column } from '../../ui'
import { CheckAsSelect, useCheckAs } from './CheckAsSelect'
import { newBatchId } from './handoff'
import { accessQueries, recordBatch, type BatchSpec } from './queries'
import { describeTarget, filterChecks, verdictCounts, VERDICTS } from './verdicts'

export interface CheckAllViewProps {
  batch: BatchSpec
  /** Opens one check in the verdict card, with the target it was asked for when known. */
  onShow: (check: AccessCheck, target: AccessTargetInput | undefined, profileId?: string) => void
  /** The same citations were handed to a new batch (checked as another profile). */
  onRecheck: (batchId: string) => void
}

interface Row {
  n: number
  check: AccessCheck
  /** Known once the batch is done (results come in target order). */
  target?: AccessTargetInput
}

/**
 * A batch of citations checked together (`access:check-all`): progress while it runs, then
 * the count per verdict class (each a filter) and a table of every verdict.
 */
export function CheckAllView({ batch, onShow, onRecheck }: CheckAllViewProps): React.JSX.Element {
  const queryClient = useQueryClient()
  const result = useQuery(accessQueries.batch(batch))
  const checkAs = useCheckAs(batch.profileId ?? null).profile
  const recheckAs = (profileId: string): void => {
    if (profileId === checkAs?.id) return
    const now = Date.now()
    const again: BatchSpec = { ...batch, batchId: newBatchId(now), startedAt: now, profileId }
    recordBatch(queryClient, again)
    onRecheck(again.batchId)
  }
  const arrived = useArrivingChecks(batch.batchId, result.isPending)
  const [verdicts, setVerdicts] = useState<ReadonlySet<LinkVerdict>>(new Set())
  const [text, setText] = useState('')

  const rows = useMemo<Row[]>(
    () =>
      result.data
        ? result.data.checks.map((check, index) => ({
            n: index + 1,
            check,
            target: batch.targets[index],
          }))
        : arrived.map((check, index) => ({ n: index + 1, check })),
    [result.data, arrived, batch.targets],
  )
  const shown = useMemo(() => filterChecks(rows, verdicts, text), [rows, verdicts, text])
  const counts = verdictCounts(rows.map((row) => row.check))
  const toggle = (verdict: LinkVerdict): void => {
    const next = new Set(verdicts)
    if (!next.delete(verdict)) next.add(verdict)
    setVerdicts(next)
  }
  const columns = useMemo(
    () => batchColumns((check, target) => onShow(check, target, batch.profileId)),
    [onShow, batch.profileId],
  )

  return (
    <section className="access-batch" aria-label={`Batch: ${batch.label}`}>
      <div className="access-batch__head">
        <h2 className="truncate" title={batch.label}>
          {batch.label}
        </h2>
        <span className="muted">{plural(batch.targets.length, 'citation')}</span>
        <CheckAsSelect
          label="Checked as"
          inline
          value={batch.profileId ?? null}
          onChange={recheckAs}
          fieldClassName="access-batch__user"
        />
        {result.isPending && (
          <Spinner label={`Checking… ${arrived.length} of ${batch.targets.length} done`} />
        )}
      </div>
      {result.isError && (
        <Banner tone="bad" title="The batch could not be checked">
          {result.error.message}
        </Banner>
      )}
      <div className="access-batch__filters">
        <div role="group" aria-label="Verdict classes" className="access-batch__counts">
          {counts.map(({ verdict, count }) => (
            <Button
              key={verdict}
              variant="ghost"
              aria-pressed={verdicts.has(verdict)}
              className="access-batch__count"
              onClick={() => toggle(verdict)}
              title={`Show only “${VERDICTS[verdict].label}” (click again to clear)`}
            >
              <Badge tone={VERDICTS[verdict].tone} dot>
                {VERDICTS[verdict].label}
              </Badge>
              <span className="access-batch__n">{count}</span>
            </Button>
          ))}
        </div>
        <TextField
          label="Filter"
          inline
          type="search"
          placeholder="server, segment, link, words"
          value={text}
          onChange={(event) => setText(event.target.value)}
          fieldClassName="access-batch__text"
        />
        {(verdicts.size > 0 || text) && (
          <Button
            variant="ghost"
            onClick={() => {
              setVerdicts(new Set())
              setText('')
            }}
          >
            Clear filters
          </Button>
        )}
        <span className="muted access-batch__shown" aria-live="polite">
          {shown.length === rows.length
            ? plural(rows.length, 'verdict')
            : `${shown.length} of ${rows.length} verdicts`}
        </span>
      </div>
      <VirtualTable
        label="Verdicts"
        rows={shown}
        columns={columns}
        rowKey={(row) => String(row.n)}
        rowLabel={(row) => `${describeTarget(row.check)}: ${VERDICTS[row.check.verdict].label}`}
        empty={
          result.isPending ? 'Waiting for the first verdict…' : 'No verdict matches the filter'
        }
      />
    </section>
  )
}

/** Checks of a running batch, in the order they finish (from `access:progress`). */
function useArrivingChecks(batchId: string, running: boolean): AccessCheck[] {
  const [arrived, setArrived] = useState<{ batchId: string; checks: AccessCheck[] }>({
    batchId,
    checks: [],
  })
  useEffect(() => {
    if (!running) return
    return subscribe('access:progress', (event) => {
      if (event.batchId !== batchId) return
      setArrived((before) => ({
        batchId,
        checks: before.batchId === batchId ? [...before.checks, event.check] : [event.check],
      }))
    })
  }, [batchId, running])
  return arrived.batchId === batchId ? arrived.checks : []
}

function batchColumns(onShow: CheckAllViewProps['onShow']): Column<Row>[] {
  return [
    { id: 'n', header: '#', width: '44px', className: 'num', cell: (row) => row.n },
    {
      id: 'target',
      header: 'Citation',
      width: '26%',
      cell: ({ check }) => (
        <span title={check.url ? `${describeTarget(check)}\n${check.url}` : undefined}>
          {describeTarget(check)}
        </span>
      ),
    },
    {
      id: 'verdict',
      header: 'Verdict',
      width: '136px',
      cell: ({ check }) => (
        <Badge tone={VERDICTS[check.verdict].tone} dot>
          {VERDICTS[check.verdict].label}
        </Badge>
      ),
    },
    {
      id: 'access',
      header: 'Has access',
      width: '96px',
      cell: ({ check }) =>
        check.access?.checked && check.access.hasAccess !== null
          ? check.access.hasAccess
            ? 'yes'
            : 'no'
          : '—',
    },
    {
      id: 'explanation',
      header: 'Why',
      cell: ({ check }) => <span title={check.explanation}>{check.explanation}</span>,
    },
    {
      id: 'show',
      header: <span className="visually-hidden">Actions</span>,
      width: '76px',
      className: 'actions',
      cell: ({ check, target }) => (
        <Button
          variant="ghost"
          aria-label={`Show the verdict on ${describeTarget(check)}`}
          onClick={() => onShow(check, target)}
        >
          Show
        </Button>
      ),
    },
  ]
}
