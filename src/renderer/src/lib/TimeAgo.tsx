import { formatAgo, formatDateTime } from './format'

/** `5 min ago` with the exact time as a tooltip, or a muted dash when there is no time. */
export function TimeAgo({ at }: { at: number | undefined }): React.JSX.Element {
  if (at === undefined) return <span className="muted">–</span>
  return <span title={formatDateTime(at)}>{formatAgo(at)}</span>
}
