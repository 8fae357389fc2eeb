import { useEffect } from 'react'
import type { Tone } from './Badge'
import { cx } from './cx'
import { Icon } from './icons'
import { IconButton } from './IconButton'
import './Toast.css'

export interface ToastItem {
  id: number
  tone: Tone
  message: string
  /** Optional second line: what to do next. */
  detail?: string
}

/** Info and success notices go away on their own; warnings and errors wait for the user. */
const AUTO_DISMISS_MS: Record<Tone, number | null> = {
  neutral: 5000,
  info: 5000,
  ok: 4000,
  warn: null,
  bad: null,
}

export interface ToastListProps {
  toasts: readonly ToastItem[]
  onDismiss: (id: number) => void
}

/**
 * Transient notices in the bottom-right corner. The list itself is a polite live region, so
 * each notice is announced once when it appears; errors are assertive.
 */
export function ToastList({ toasts, onDismiss }: ToastListProps): React.JSX.Element {
  return (
    <section className="ui-toasts" aria-label="Notifications">
      <div role="status" aria-live="polite" className="ui-toasts__list">
        {toasts
          .filter((t) => t.tone !== 'bad')
          .map((toast) => (
            <Toast key={toast.id} toast={toast} onDismiss={onDismiss} />
          ))}
      </div>
      <div role="alert" aria-live="assertive" className="ui-toasts__list">
        {toasts
          .filter((t) => t.tone === 'bad')
          .map((toast) => (
            <Toast key={toast.id} toast={toast} onDismiss={onDismiss} />
          ))}
      </div>
    </section>
  )
}

function Toast({
  toast,
  onDismiss,
}: {
  toast: ToastItem
  onDismiss: (id: number) => void
}): React.JSX.Element {
  const timeout = AUTO_DISMISS_MS[toast.tone]
  useEffect(() => {
    if (timeout === null) return
    const timer = setTimeout(() => onDismiss(toast.id), timeout)
    return () => clearTimeout(timer)
  }, [timeout, toast.id, onDismiss])
  const icon =
    toast.tone === 'bad'
      ? 'error'
      : toast.tone === 'warn'
        ? 'warning'
        : toast.tone === 'ok'
          ? 'check'
          : 'info'
  return (
    <div className={cx('ui-toast', `ui-toast--${toast.tone}`)}>
      <Icon name={icon} size={15} className="ui-toast__icon" />
      <div className="ui-toast__text">
        <div>{toast.message}</div>
        {toast.detail && <div className="ui-toast__detail">{toast.detail}</div>}
      </div>
      <IconButton icon="close" label="Dismiss notification" onClick={() => onDismiss(toast.id)} />
    </div>
  )
}
