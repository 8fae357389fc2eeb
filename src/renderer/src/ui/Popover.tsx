import { useEffect, useId, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { cx } from './cx'
import './Popover.css'

export interface PopoverProps {
  /** Content of the trigger button: its visible label, and the start of its accessible name. */
  trigger: React.ReactNode
  /**
   * Words read before the trigger's content (`Registry:`), for screen readers only. The content
   * stays part of the accessible name, so the name always contains the visible label
   * (WCAG 2.5.3: a voice user says what they see).
   */
  triggerPrefix?: string
  triggerClassName?: string
  /** Accessible name of the popover. */
  label: string
  className?: string
  children: React.ReactNode
}

/**
 * A button that opens a small panel below it, on the native popover API: light dismiss,
 * Escape closes, `aria-expanded` kept by the browser, and focus returns to the button. The
 * content is mounted only while the panel is open: a closed one (a picker of 500 servers, say)
 * costs nothing when the page around it renders again.
 */
export function Popover({
  trigger,
  triggerPrefix,
  triggerClassName,
  label,
  className,
  children,
}: PopoverProps): React.JSX.Element {
  const id = useId()
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)
  const [open, setOpen] = useState(false)

  useEffect(() => {
    const panel = panelRef.current
    if (!panel) return
    // Before the browser shows the panel, so it never shows empty.
    const mount = (event: Event): void => {
      if ((event as ToggleEvent).newState === 'open') flushSync(() => setOpen(true))
    }
    const place = (event: Event): void => {
      if ((event as ToggleEvent).newState === 'closed') {
        setOpen(false)
        return
      }
      if (!buttonRef.current) return
      const anchor = buttonRef.current.getBoundingClientRect()
      const width = panel.offsetWidth
      const left = Math.max(8, Math.min(anchor.left, window.innerWidth - width - 8))
      // Below the button, or above it when the window ends first (a button near the bottom).
      const height = panel.offsetHeight
      const below = anchor.bottom + 4 + height <= window.innerHeight - 8
      const top = below ? anchor.bottom + 4 : Math.max(8, anchor.top - 4 - height)
      panel.style.top = `${top}px`
      panel.style.left = `${left}px`
    }
    panel.addEventListener('beforetoggle', mount)
    panel.addEventListener('toggle', place)
    return () => {
      panel.removeEventListener('beforetoggle', mount)
      panel.removeEventListener('toggle', place)
    }
  }, [])

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={cx('ui-popover-trigger', triggerClassName)}
        popoverTarget={id}
      >
        {triggerPrefix && <span className="visually-hidden">{`${triggerPrefix} `}</span>}
        {trigger}
      </button>
      <div
        ref={panelRef}
        id={id}
        popover="auto"
        role="dialog"
        aria-label={label}
        className={cx('ui-popover', className)}
      >
        {open && children}
      </div>
    </>
  )
}
