import type { Tone } from './Badge'
import { cx } from './cx'
import { Icon, type IconName } from './icons'
import { IconButton } from './IconButton'
import './Banner.css'

const ICONS: Record<Tone, IconName> = {
  neutral: 'info',
  info: 'info',
  ok: 'check',
  warn: 'warning',
  bad: 'error',
}

export interface BannerProps {
  tone?: Tone
  title?: React.ReactNode
  children?: React.ReactNode
  /** Buttons or links on the right. */
  actions?: React.ReactNode
  onDismiss?: () => void
  /** Defaults to `alert` for warn/bad (announced at once) and `status` otherwise. */
  role?: 'alert' | 'status' | 'region' | 'none'
  /** Accessible name when the role is `region`. */
  label?: string
  className?: string
}

/** A full-width message inside a panel or above the app: what happened, what to do. */
export function Banner({
  tone = 'info',
  title,
  children,
  actions,
  onDismiss,
  role,
  label,
  className,
}: BannerProps): React.JSX.Element {
  const effectiveRole = role ?? (tone === 'bad' || tone === 'warn' ? 'alert' : 'status')
  return (
    <div
      className={cx('ui-banner', `ui-banner--${tone}`, className)}
      role={effectiveRole === 'none' ? undefined : effectiveRole}
      aria-label={label}
    >
      <Icon name={ICONS[tone]} size={15} className="ui-banner__icon" />
      <div className="ui-banner__text">
        {title && <div className="ui-banner__title">{title}</div>}
        {children && <div className="ui-banner__body">{children}</div>}
      </div>
      {actions && <div className="ui-banner__actions">{actions}</div>}
      {onDismiss && <IconButton icon="close" label="Dismiss" onClick={onDismiss} />}
    </div>
  )
}
