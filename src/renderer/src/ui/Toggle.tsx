import { cx } from './cx'
import './Toggle.css'

export interface ToggleProps {
  checked: boolean
  onChange: (checked: boolean) => void
  /** Shown beside the switch; also its accessible name unless `ariaLabel` is given. */
  label?: React.ReactNode
  /** The accessible name when no visible label is wanted (e.g. in a table row). */
  ariaLabel?: string
  disabled?: boolean
  className?: string
}

/** An on/off switch (`role="switch"`); Space and Enter flip it. */
export function Toggle({
  checked,
  onChange,
  label,
  ariaLabel,
  disabled,
  className,
}: ToggleProps): React.JSX.Element {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={ariaLabel}
      disabled={disabled}
      className={cx('ui-toggle', className)}
      onClick={() => onChange(!checked)}
    >
      <span className="ui-toggle__track" aria-hidden="true">
        <span className="ui-toggle__thumb" />
      </span>
      {label !== undefined && <span className="ui-toggle__label">{label}</span>}
    </button>
  )
}
