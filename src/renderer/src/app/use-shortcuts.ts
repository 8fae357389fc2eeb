import { useEffect } from 'react'
import { isMac } from '../ui'
import { PANELS, useUiStore } from '../state/store'

/**
 * App-wide shortcuts: Ctrl/⌘+1…8 open the panels in navigation order and move focus into
 * them. Ignored while a modal dialog is open, so a dialog's own keys stay its own.
 */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const mac = isMac()
    const onKeyDown = (event: KeyboardEvent): void => {
      const mod = mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey
      if (!mod || event.altKey || event.shiftKey) return
      const index = Number(event.key) - 1
      const panel = PANELS[index]
      if (!panel || document.querySelector('dialog[open]')) return
      event.preventDefault()
      useUiStore.getState().panelShortcutPressed(panel)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
}
