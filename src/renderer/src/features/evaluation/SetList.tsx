import type { GoldenSetSummary } from '#shared/model/evaluation'
import { formatDateTime } from '../../lib/format'
import { Badge, Button, EmptyRow, Table } from '../../ui'
import { RowPick } from './RowPick'

export interface SetListProps {
  sets: readonly GoldenSetSummary[]
  selected: string | undefined
  onSelect: (id: string) => void
  onNew: () => void
  /** Absent: the demo set is not offered (it is there, or the registry is not the demo's). */
  onAddDemo?: (() => void) | undefined
  addingDemo: boolean
}

/** Every golden set: name, queries, judgments (when it was saved in the name's tooltip). */
export function SetList({
  sets,
  selected,
  onSelect,
  onNew,
  onAddDemo,
  addingDemo,
}: SetListProps): React.JSX.Element {
  return (
    <section className="eval-sets" aria-label="Golden sets">
      <div className="eval-section__head">
        <h2>Golden sets</h2>
        <Button icon="plus" onClick={onNew}>
          New set
        </Button>
        {onAddDemo && (
          <Button variant="ghost" busy={addingDemo} onClick={onAddDemo}>
            Add the demo set
          </Button>
        )}
      </div>
      <Table label="Golden sets" className="eval-sets__table">
        <thead>
          <tr>
            <th scope="col">Set</th>
            <th scope="col" className="num">
              Queries
            </th>
            <th scope="col" className="num">
              Judged
            </th>
          </tr>
        </thead>
        <tbody>
          {sets.length === 0 && <EmptyRow colSpan={3}>No golden set yet.</EmptyRow>}
          {sets.map((set) => (
            <tr key={set.id} className={set.id === selected ? 'eval-row--selected' : undefined}>
              <td>
                <RowPick
                  picked={set.id === selected}
                  onPick={() => onSelect(set.id)}
                  title={[
                    set.description ?? set.id,
                    set.updatedAt && `Saved ${formatDateTime(Date.parse(set.updatedAt))}`,
                  ]
                    .filter(Boolean)
                    .join('\n')}
                >
                  {set.name}
                </RowPick>
                {set.id === 'demo' && <Badge tone="info">demo</Badge>}
              </td>
              <td className="num">{set.queryCount}</td>
              <td className="num">{set.judgmentCount}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  )
}
