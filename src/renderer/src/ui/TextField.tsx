import { cx } from './cx'
import { Field } from './Field'

export interface TextFieldProps extends Omit<React.ComponentPropsWithRef<'input'>, 'id'> {
  label: React.ReactNode
  hint?: React.ReactNode
  error?: React.ReactNode
  inline?: boolean
  /** Monospace text, for paths, ids and URLs. */
  mono?: boolean
  fieldClassName?: string
}

/** A labelled one-line text input. */
export function TextField({
  label,
  hint,
  error,
  inline,
  mono,
  className,
  fieldClassName,
  ...input
}: TextFieldProps): React.JSX.Element {
  return (
    <Field label={label} hint={hint} error={error} inline={inline} className={fieldClassName}>
      {(control) => (
        <input
          type="text"
          className={cx('ui-input', mono && 'ui-input--mono', className)}
          {...control}
          {...input}
        />
      )}
    </Field>
  )
}

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'mono'>

/**
 * A masked input for secrets. The value is never shown (there is no "reveal" on purpose), the
 * browser is asked not to remember or spell-check it.
 */
export function PasswordField(props: PasswordFieldProps): React.JSX.Element {
  return (
    <TextField
      {...props}
      type="password"
      mono
      autoComplete="new-password"
      spellCheck={false}
      autoCapitalize="off"
      autoCorrect="off"
    />
  )
}
