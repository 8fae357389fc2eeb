import { cx } from './cx'
import './Badge.css'

export type Tone = 'neutral' | 'info' | 'ok' | 'warn' | 'bad'

export interface BadgeProps {
  tone?: Tone
  /** Draws a leading dot, for states rather than labels. */
  dot?: boolean
  title?: string | undefined
  className?: string
  children: React.ReactNode
}

/** A compact label. Colour never carries meaning alone: the text says it too. */
export function Badge({
  tone = 'neutral',
  dot = false,
  title,
  className,
  children,
}: BadgeProps): React.JSX.Element {
  return (
    <span className={cx('ui-badge', `ui-badge--${tone}`, className)} title={title}>
      {dot && <span className="ui-badge__dot" aria-hidden="true" />}
      {children}
    </span>
  )
}

/**
 * Every state the console shows as a badge, with its tone and words. Server states come from
 * the connection pool; the rest from secrets, reloads, imports and registry diffs.
 */
export const STATUSES = {
  ready: { tone: 'ok', label: 'ready' },
  degraded: { tone: 'warn', label: 'degraded' },
  down: { tone: 'bad', label: 'down' },
  action_required: { tone: 'warn', label: 'action required' },
  disabled: { tone: 'neutral', label: 'disabled' },
  connecting: { tone: 'info', label: 'connecting' },
  set: { tone: 'ok', label: 'set' },
  missing: { tone: 'bad', label: 'missing' },
  unknown: { tone: 'neutral', label: 'unknown' },
  applied: { tone: 'ok', label: 'applied' },
  invalid: { tone: 'bad', label: 'invalid' },
  added: { tone: 'ok', label: 'added' },
  changed: { tone: 'info', label: 'changed' },
  removed: { tone: 'bad', label: 'removed' },
  unchanged: { tone: 'neutral', label: 'unchanged' },
} as const satisfies Record<string, { tone: Tone; label: string }>

export type Status = keyof typeof STATUSES

export interface StatusBadgeProps {
  status: Status
  /** Replaces the standard words, e.g. "set 5 min ago". */
  label?: string | undefined
  title?: string | undefined
}

/** A state badge with the standard tone and words for `status`. */
export function StatusBadge({ status, label, title }: StatusBadgeProps): React.JSX.Element {
  const spec = STATUSES[status]
  return (
    <Badge tone={spec.tone} dot title={title} className={`ui-status--${status}`}>
      {label ?? spec.label}
    </Badge>
  )
}
