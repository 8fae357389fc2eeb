import { useId } from 'react'
import { cx } from './cx'
import './Field.css'

/** The ids and state a control inside a {@link Field} must carry. */
export interface FieldControlProps {
  id: string
  'aria-describedby': string | undefined
  'aria-invalid': true | undefined
}

export interface FieldProps {
  label: React.ReactNode
  /** Help under the control. */
  hint?: React.ReactNode
  /** What is wrong with the value and how to fix it; marks the control invalid. */
  error?: React.ReactNode
  /** Label beside the control instead of above it. */
  inline?: boolean | undefined
  className?: string | undefined
  children: (control: FieldControlProps) => React.ReactNode
}

/** A labelled control with optional hint and error, wired up for screen readers. */
export function Field({
  label,
  hint,
  error,
  inline = false,
  className,
  children,
}: FieldProps): React.JSX.Element {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined
  return (
    <div className={cx('ui-field', inline && 'ui-field--inline', className)}>
      <label className="ui-field__label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        'aria-describedby': describedBy,
        'aria-invalid': error ? true : undefined,
      })}
      {error && (
        <div className="ui-field__error" id={errorId}>
          {error}
        </div>
      )}
      {hint && (
        <div className="ui-field__hint" id={hintId}>
          {hint}
        </div>
      )}
    </div>
  )
}
