import { cx } from './cx'
import { Icon, type IconName } from './icons'
import './EmptyState.css'

export interface EmptyStateProps {
  icon?: IconName
  title: React.ReactNode
  /** What this place is for and how to fill it. */
  children?: React.ReactNode
  action?: React.ReactNode
  className?: string
}

/** Shown where a list or panel has nothing yet: says why and what to do about it. */
export function EmptyState({
  icon = 'info',
  title,
  children,
  action,
  className,
}: EmptyStateProps): React.JSX.Element {
  return (
    <div className={cx('ui-empty', className)}>
      <Icon name={icon} size={22} className="ui-empty__icon" />
      <div className="ui-empty__title">{title}</div>
      {children && <div className="ui-empty__body">{children}</div>}
      {action && <div className="ui-empty__action">{action}</div>}
    </div>
  )
}
