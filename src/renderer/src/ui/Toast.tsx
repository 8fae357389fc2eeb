import { useEffect, useState } from 'react'
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
  /** Goes away after this long (not while pointed at or focused), whatever its tone. */
  timeoutMs?: number
}

/**
 * Info and success notices go away on their own (not while pointed at or focused); warnings
 * and errors wait for the user, unless the notice says how long it stays.
 */
const AUTO_DISMISS_MS: Record<Tone, number | null> = {
  neutral: 8000,
  info: 8000,
  ok: 6000,
  warn: null,
  bad: null,
}

export interface ToastListProps {
  toasts: readonly ToastItem[]
  onDismiss: (id: number) => void
}

/**
 * Transient notices in the bottom-right corner. Info and warnings sit in a polite live region
 * (announced once when they appear); each error is its own `role="alert"`.
 */
export function ToastList({ toasts, onDismiss }: ToastListProps): React.JSX.Element {
  return (
    <section className="ui-toasts" aria-label="Notifications">
      <div role="status" className="ui-toasts__list">
        {toasts
          .filter((t) => t.tone !== 'bad')
          .map((toast) => (
            <Toast key={toast.id} toast={toast} onDismiss={onDismiss} />
          ))}
      </div>
      <div className="ui-toasts__list">
        {toasts
          .filter((t) => t.tone === 'bad')
          .map((toast) => (
            <Toast key={toast.id} toast={toast} onDismiss={onDismiss} role="alert" />
          ))}
      </div>
    </section>
  )
}

function Toast({
  toast,
  onDismiss,
  role,
}: {
  toast: ToastItem
  onDismiss: (id: number) => void
  role?: 'alert'
}): React.JSX.Element {
  const timeout = toast.timeoutMs ?? AUTO_DISMISS_MS[toast.tone]
  const [held, setHeld] = useState(false)
  useEffect(() => {
    if (timeout === null || held) return
    const timer = setTimeout(() => onDismiss(toast.id), timeout)
    return () => clearTimeout(timer)
  }, [timeout, held, toast.id, onDismiss])
  const icon =
    toast.tone === 'bad'
      ? 'error'
      : toast.tone === 'warn'
        ? 'warning'
        : toast.tone === 'ok'
          ? 'check'
          : 'info'
  return (
    <div
      className={cx('ui-toast', `ui-toast--${toast.tone}`)}
      role={role}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <Icon name={icon} size={15} className="ui-toast__icon" />
      <div className="ui-toast__text">
        <div>{toast.message}</div>
        {toast.detail && <div className="ui-toast__detail">{toast.detail}</div>}
      </div>
      <IconButton icon="close" label="Dismiss notification" onClick={() => onDismiss(toast.id)} />
    </div>
  )
}
