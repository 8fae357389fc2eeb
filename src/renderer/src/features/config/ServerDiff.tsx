import type { RegistryDiff } from '../../../../shared/model/registry'
import { listNames } from '../../lib/format'
import { StatusBadge } from '../../ui'
import './ServerDiff.css'

export interface ServerDiffProps {
  diff: RegistryDiff
  /** Name at most this many unchanged servers; the rest are counted. */
  maxUnchanged?: number
}

/**
 * What a registry change does per server: added, changed and removed ids, and how many stay
 * untouched (they keep their connections).
 */
export function ServerDiff({ diff, maxUnchanged = 6 }: ServerDiffProps): React.JSX.Element {
  const rows = [
    { status: 'added' as const, verb: 'Adds', ids: diff.added },
    { status: 'changed' as const, verb: 'Changes', ids: diff.changed },
    { status: 'removed' as const, verb: 'Removes', ids: diff.removed },
  ].filter((row) => row.ids.length > 0)
  return (
    <dl className="server-diff">
      {rows.length === 0 && (
        <div className="server-diff__row">
          <dt className="muted">No server changes</dt>
          <dd className="muted">only formatting, comments or order</dd>
        </div>
      )}
      {rows.map((row) => (
        <div key={row.status} className="server-diff__row">
          <dt>
            <StatusBadge status={row.status} label={`${row.verb} ${row.ids.length}`} />
          </dt>
          <dd className="server-diff__ids">
            {row.ids.map((id) => (
              <code key={id}>{id}</code>
            ))}
          </dd>
        </div>
      ))}
      {diff.unchanged.length > 0 && (
        <div className="server-diff__row">
          <dt>
            <StatusBadge status="unchanged" label={`Unchanged ${diff.unchanged.length}`} />
          </dt>
          <dd className="muted" title={diff.unchanged.join(', ')}>
            {listNames(diff.unchanged, maxUnchanged)} — keep{' '}
            {diff.unchanged.length === 1 ? 'its connection' : 'their connections'}
          </dd>
        </div>
      )}
    </dl>
  )
}

/** `1 added, 2 changed`, for dense lists. */
export function diffCounts(diff: RegistryDiff): string {
  const parts = []
  if (diff.added.length) parts.push(`${diff.added.length} added`)
  if (diff.changed.length) parts.push(`${diff.changed.length} changed`)
  if (diff.removed.length) parts.push(`${diff.removed.length} removed`)
  return parts.length ? parts.join(', ') : 'no server changes'
}
