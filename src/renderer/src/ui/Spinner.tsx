import { cx } from './cx'
import './Spinner.css'

export interface SpinnerProps {
  /** Announced to screen readers; omit when the surrounding control already says it is busy. */
  label?: string
  size?: number
  className?: string
}

/** A small busy indicator. With a label it is a polite live status. */
export function Spinner({ label, size = 14, className }: SpinnerProps): React.JSX.Element {
  const svg = (
    <svg
      className="ui-spinner__svg"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="8" cy="8" r="6" fill="none" strokeWidth="2" className="ui-spinner__track" />
      <path d="M8 2a6 6 0 0 1 6 6" fill="none" strokeWidth="2" className="ui-spinner__arc" />
    </svg>
  )
  if (!label) return <span className={cx('ui-spinner', className)}>{svg}</span>
  return (
    <span className={cx('ui-spinner', className)} role="status">
      {svg}
      <span className="ui-spinner__label">{label}</span>
    </span>
  )
}
