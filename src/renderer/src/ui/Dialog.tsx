import { useEffect, useId, useRef } from 'react'
import { cx } from './cx'
import { deepActiveElement, focusableIn, wrapTab } from './focusable'
import { IconButton } from './IconButton'
import './Dialog.css'

export interface DialogProps {
  /** Rendered (and shown modally) only while true. */
  open: boolean
  /** Escape, the close button, and the parent's own buttons all end here. */
  onClose: () => void
  title: React.ReactNode
  description?: React.ReactNode
  /** Buttons at the bottom, primary action last. */
  footer?: React.ReactNode
  /** Wraps body and footer in a form: Enter in a field submits. */
  onSubmit?: () => void
  size?: 'sm' | 'md' | 'lg' | 'xl'
  className?: string
  children?: React.ReactNode
}

/**
 * A modal dialog on the native `<dialog>`: the rest of the page is inert, focus stays inside
 * (Tab wraps), Escape closes, and focus returns to where it was. The first element marked
 * `data-autofocus` (else the first field of the body) gets focus on open.
 */
export function Dialog(props: DialogProps): React.JSX.Element | null {
  if (!props.open) return null
  return <OpenDialog {...props} />
}

function OpenDialog({
  onClose,
  title,
  description,
  footer,
  onSubmit,
  size = 'md',
  className,
  children,
}: DialogProps): React.JSX.Element {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const descriptionId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const previous = deepActiveElement()
    if (!dialog.open) dialog.showModal()
    const target =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ??
      focusableIn(dialog.querySelector('.ui-dialog__body') ?? dialog)[0] ??
      focusableIn(dialog)[0]
    target?.focus()
    return () => {
      if (dialog.open) dialog.close()
      if (previous?.isConnected) previous.focus()
    }
  }, [])

  const body = (
    <>
      <div className="ui-dialog__body">
        {description && (
          <p className="ui-dialog__description" id={descriptionId}>
            {description}
          </p>
        )}
        {children}
      </div>
      {footer && <div className="ui-dialog__footer">{footer}</div>}
    </>
  )

  return (
    <dialog
      ref={ref}
      className={cx('ui-dialog', `ui-dialog--${size}`, className)}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClose={onClose}
      onKeyDown={(event) => {
        // Keys from a dialog opened on top of this one are that dialog's business.
        const own = (event.target as Element).closest('dialog') === ref.current
        if (own && ref.current) wrapTab(event, ref.current)
      }}
    >
      <div className="ui-dialog__header">
        <h2 id={titleId}>{title}</h2>
        <IconButton icon="close" label="Close" onClick={onClose} />
      </div>
      {onSubmit ? (
        <form
          className="ui-dialog__form"
          onSubmit={(event) => {
            event.preventDefault()
            onSubmit()
          }}
        >
          {body}
        </form>
      ) : (
        body
      )}
    </dialog>
  )
}
