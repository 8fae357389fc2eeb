import { cx } from './cx'
import { Icon, type IconName } from './icons'
import { Spinner } from './Spinner'
import './Button.css'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'

export interface ButtonProps extends React.ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant
  icon?: IconName
  /**
   * Shows a spinner, marks the button busy and ignores clicks. A busy button stays focusable
   * (`aria-disabled`, not `disabled`): focus on it, or coming back to it from a dialog it
   * opened, is not lost while its work runs.
   */
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
  onClick,
  ...rest
}: ButtonProps): React.JSX.Element {
  return (
    <button
      type={type ?? 'button'}
      className={cx('ui-button', `ui-button--${variant}`, className)}
      disabled={disabled}
      aria-disabled={(busy && !disabled) || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => {
        // Also stops a busy submit button from submitting its form again.
        if (busy) event.preventDefault()
        else onClick?.(event)
      }}
      {...rest}
    >
      {busy ? <Spinner size={12} /> : icon ? <Icon name={icon} size={13} /> : null}
      {children}
    </button>
  )
}
