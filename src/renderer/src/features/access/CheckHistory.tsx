import { formatTime } from '../../lib/format'
import { Badge, Button, EmptyRow, Table } from '../../ui'
import type { HistoryEntry } from './queries'
import { describeTarget, VERDICTS } from './verdicts'

export interface CheckHistoryProps {
  entries: readonly HistoryEntry[]
  /** The entry the verdict card shows. */
  currentId: number | undefined
  onShow: (entry: HistoryEntry) => void
}

/** Recent checks (kept across reloads), newest first; any one can be shown again. */
export function CheckHistory({ entries, currentId, onShow }: CheckHistoryProps): React.JSX.Element {
  return (
    <section className="access-history" aria-labelledby="access-history-title">
      <h2 id="access-history-title">
        Recent checks <span className="muted">({entries.length})</span>
      </h2>
      <Table label="Recent checks" scroll className="access-history__table">
        <thead>
          <tr>
            <th>Time</th>
            <th>User</th>
            <th>Checked</th>
            <th>Verdict</th>
            <th>Cache</th>
            <th className="actions">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.length === 0 && (
            <EmptyRow colSpan={6}>Checks you make appear here, newest first.</EmptyRow>
          )}
          {entries.map((entry) => {
            const { check } = entry
            const what = describeTarget(check)
            const verdict = VERDICTS[check.verdict]
            const current = entry.id === currentId
            return (
              <tr
                key={entry.id}
                aria-current={current || undefined}
                className={current ? 'access-history__current' : undefined}
              >
                <td className="num">{formatTime(check.checkedAt)}</td>
                <td>
                  <code>{check.user.userId}</code>
                </td>
                <td className="access-history__what">
                  <span className="truncate" title={check.url ? `${what}\n${check.url}` : what}>
                    {what}
                  </span>
                </td>
                <td>
                  <Badge tone={verdict.tone} dot>
                    {verdict.label}
                  </Badge>
                </td>
                <td className="muted">{check.cached ? 'cached' : 'fresh'}</td>
                <td className="actions">
                  <Button
                    variant="ghost"
                    disabled={current}
                    aria-label={`${current ? 'Shown:' : 'Show'} the check of ${what} as ${check.user.userId} at ${formatTime(check.checkedAt)}`}
                    onClick={() => onShow(entry)}
                  >
                    {current ? 'Shown' : 'Show'}
                  </Button>
                </td>
              </tr>
            )
          })}
        </tbody>
      </Table>
    </section>
  )
}
