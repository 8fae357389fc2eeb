import { cx } from './cx'
import { Icon, type IconName } from './icons'
import './Button.css'

export interface IconButtonProps extends Omit<
  React.ComponentPropsWithRef<'button'>,
  'children' | 'aria-label'
> {
  icon: IconName
  /** Required: the accessible name and the tooltip. */
  label: string
  tone?: 'default' | 'danger'
}

/** A square button with only an icon; `label` names it for screen readers and the tooltip. */
export function IconButton({
  icon,
  label,
  tone = 'default',
  className,
  type,
  title,
  ...rest
}: IconButtonProps): React.JSX.Element {
  return (
    <button
      type={type ?? 'button'}
      className={cx('ui-icon-button', tone === 'danger' && 'ui-icon-button--danger', className)}
      aria-label={label}
      title={title ?? label}
      {...rest}
    >
      <Icon name={icon} />
    </button>
  )
}
