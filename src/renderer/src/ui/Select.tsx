import { cx } from './cx'
import { Field } from './Field'

export interface SelectOption<V extends string> {
  value: V
  label: string
  disabled?: boolean
}

export interface SelectProps<V extends string> extends Omit<
  React.ComponentPropsWithRef<'select'>,
  'id' | 'value' | 'onChange'
> {
  label: React.ReactNode
  value: V
  options: readonly SelectOption<V>[]
  onChange: (value: V) => void
  hint?: React.ReactNode
  /** What is wrong with the choice; marks the select invalid. */
  error?: React.ReactNode
  inline?: boolean
  fieldClassName?: string
}

/** A labelled native select: keyboard and screen-reader behaviour come from the platform. */
export function Select<V extends string>({
  label,
  value,
  options,
  onChange,
  hint,
  error,
  inline,
  className,
  fieldClassName,
  ...select
}: SelectProps<V>): React.JSX.Element {
  return (
    <Field label={label} hint={hint} error={error} inline={inline} className={fieldClassName}>
      {(control) => (
        <select
          className={cx('ui-select', className)}
          value={value}
          onChange={(event) => onChange(event.target.value as V)}
          {...control}
          {...select}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
