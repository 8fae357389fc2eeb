import { cx } from './cx'
import { Icon, type IconName } from './icons'
import { Spinner } from './Spinner'
import './Button.css'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'

export interface ButtonProps extends React.ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant
  icon?: IconName
  /** Shows a spinner, marks the button busy and ignores clicks. */
  busy?: boolean
}

/** The one text button. `type` defaults to "button" so nothing submits by accident. */
export function Button({
  variant = 'secondary',
  icon,
  busy = false,
  className,
  children,
  disabled,
  type,
  ...rest
}: ButtonProps): React.JSX.Element {
  return (
    <button
      type={type ?? 'button'}
      className={cx('ui-button', `ui-button--${variant}`, className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <Spinner size={12} /> : icon ? <Icon name={icon} size={13} /> : null}
      {children}
    </button>
  )
}
