import type { FieldChange, RegistryDiff } from '#shared/model/registry'
import { listNames } from '../../lib/format'
import { StatusBadge } from '../../ui'
import './ServerDiff.css'

export interface ServerDiffProps {
  diff: RegistryDiff
  /** Name at most this many unchanged servers; the rest are counted. */
  maxUnchanged?: number
}

/**
 * What a registry change does per server: added, changed (each with the fields that changed,
 * old → new) and removed ids, and how many stay untouched (they keep their connections).
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
            {row.ids.map((id) =>
              row.status === 'changed' && diff.fields?.[id] ? (
                <FieldList key={id} server={id} changes={diff.fields[id]} />
              ) : (
                <code key={id}>{id}</code>
              ),
            )}
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

/** A changed server and its fields: `timeoutMs 10000 → 60000`. */
function FieldList({ server, changes }: { server: string; changes: FieldChange[] }) {
  return (
    <div className="server-diff__server">
      <code>{server}</code>
      <ul className="server-diff__fields" aria-label={`Fields of ${server} that change`}>
        {changes.length === 0 && <li className="muted">its effective settings</li>}
        {changes.map((change) => (
          <li key={change.path}>
            <code>{change.path}</code> {describeChange(change)}
          </li>
        ))}
      </ul>
    </div>
  )
}

/** `10000 → 60000`, `set to "b"`, `removed (was "a")`; a masked secret only says it changed. */
export function describeChange({ before, after }: FieldChange): string {
  if (before !== undefined && before === after) return 'changed (value hidden)'
  if (before === undefined) return `set to ${after}`
  if (after === undefined) return `removed (was ${before})`
  return `${before} → ${after}`
}

/** `1 added, 2 changed`, or `1 changed (alpha: timeoutMs)`, for dense lists. */
export function diffCounts(diff: RegistryDiff): string {
  const parts = []
  if (diff.added.length) parts.push(`${diff.added.length} added`)
  const [only] = diff.changed
  const fields = diff.changed.length === 1 ? diff.fields?.[only!] : undefined
  if (fields?.length) {
    parts.push(
      `1 changed (${only}: ${listNames(
        fields.map((f) => f.path),
        3,
      )})`,
    )
  } else if (diff.changed.length) parts.push(`${diff.changed.length} changed`)
  if (diff.removed.length) parts.push(`${diff.removed.length} removed`)
  return parts.length ? parts.join(', ') : 'no server changes'
}
