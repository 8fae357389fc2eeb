import { useMemo } from 'react'
import type { AccessTargetInput } from '#shared/ipc/rag'
import type { AccessCheck } from '#shared/model/rag'
import { plural } from '../../lib/format'
import { Badge, Banner, Button, Spinner, TextField, VirtualTable, type Column } from '../../ui'
import { hasAccessCell, shownLine, type BatchRow } from './check-all'
import { CheckAsSelect } from './CheckAsSelect'
import type { BatchSpec } from './queries'
import { useCheckAll } from './use-check-all'
import { describeTarget, VERDICTS } from './verdicts'

export interface CheckAllViewProps {
  batch: BatchSpec
  /** Opens one check in the verdict card, with the target it was asked for when known. */
  onShow: (check: AccessCheck, target: AccessTargetInput | undefined, profileId?: string) => void
  /** The same citations were handed to a new batch (checked as another profile). */
  onRecheck: (batchId: string) => void
}

/**
 * A batch of citations checked together (`access:check-all`): progress while it runs, then
 * the count per verdict class (each a filter) and a table of every verdict.
 */
export function CheckAllView({ batch, onShow, onRecheck }: CheckAllViewProps): React.JSX.Element {
  const all = useCheckAll(batch, onRecheck)
  const { result, shown } = all
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
          onChange={all.recheckAs}
          fieldClassName="access-batch__user"
        />
        {result.isPending && (
          <Spinner label={`Checking… ${all.arrived} of ${batch.targets.length} done`} />
        )}
      </div>
      {result.isError && (
        <Banner tone="bad" title="The batch could not be checked">
          {result.error.message}
        </Banner>
      )}
      <VerdictFilters filters={all} />
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

/** The count per verdict class (each a filter), a text filter, and how many rows are shown. */
function VerdictFilters({
  filters,
}: {
  filters: ReturnType<typeof useCheckAll>
}): React.JSX.Element {
  const { counts, verdicts, text } = filters
  return (
    <div className="access-batch__filters">
      <div role="group" aria-label="Verdict classes" className="access-batch__counts">
        {counts.map(({ verdict, count }) => (
          <Button
            key={verdict}
            variant="ghost"
            aria-pressed={verdicts.has(verdict)}
            className="access-batch__count"
            onClick={() => filters.toggle(verdict)}
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
        onChange={(event) => filters.setText(event.target.value)}
        fieldClassName="access-batch__text"
      />
      {filters.filtered && (
        <Button variant="ghost" onClick={filters.clearFilters}>
          Clear filters
        </Button>
      )}
      <span className="muted access-batch__shown" aria-live="polite">
        {shownLine(filters.shown.length, filters.rows.length)}
      </span>
    </div>
  )
}

function batchColumns(onShow: CheckAllViewProps['onShow']): Column<BatchRow>[] {
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
      cell: ({ check }) => hasAccessCell(check),
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
