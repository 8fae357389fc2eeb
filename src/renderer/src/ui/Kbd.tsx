import { cx } from './cx'
import './Kbd.css'

/** True on macOS, where Mod is ⌘. */
export const isMac = (): boolean =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

const MAC_SYMBOLS: Record<string, string> = { Mod: '⌘', Shift: '⇧', Alt: '⌥', Enter: '↩' }

/** `Mod+S` → `Ctrl+S` (or `⌘S` on macOS), for display. */
export function formatShortcut(shortcut: string, mac = isMac()): string {
  const parts = shortcut.split('+')
  if (mac) return parts.map((part) => MAC_SYMBOLS[part] ?? part).join('')
  return parts.map((part) => (part === 'Mod' ? 'Ctrl' : part)).join('+')
}

/** `Mod+S` → `Control+S` / `Meta+S`, the form `aria-keyshortcuts` wants. */
export function ariaShortcut(shortcut: string, mac = isMac()): string {
  return shortcut.replace('Mod', mac ? 'Meta' : 'Control')
}

export interface KbdProps {
  /** Written with `Mod` for Ctrl/⌘: `Mod+1`, `Mod+S`, `Escape`. */
  shortcut: string
  className?: string
}

/**
 * A keyboard-shortcut hint. It is visual only (hidden from screen readers): put the shortcut
 * on the control itself with `aria-keyshortcuts={ariaShortcut(...)}`.
 */
export function Kbd({ shortcut, className }: KbdProps): React.JSX.Element {
  return (
    <kbd className={cx('ui-kbd', className)} aria-hidden="true">
      {formatShortcut(shortcut)}
    </kbd>
  )
}
