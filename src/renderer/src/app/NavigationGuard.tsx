import { useEffect } from 'react'
import { ConfirmDialog } from '../ui'
import {
  useConfigDirty,
  useNavigationCancelled,
  useNavigationConfirmed,
  usePendingPanel,
} from '../state/store'
import { panelLabel } from './panels'

/**
 * Asks before unsaved config edits are thrown away: when leaving the Config panel, and (via
 * the browser's own prompt) when the window is reloaded or closed.
 */
export function NavigationGuard(): React.JSX.Element {
  const pending = usePendingPanel()
  const dirty = useConfigDirty()
  const confirmed = useNavigationConfirmed()
  const cancelled = useNavigationCancelled()

  useEffect(() => {
    if (!dirty) return
    const onBeforeUnload = (event: BeforeUnloadEvent): void => event.preventDefault()
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [dirty])

  return (
    <ConfirmDialog
      open={pending !== null}
      title="Discard unsaved changes?"
      confirmLabel={pending ? `Discard and open ${panelLabel(pending)}` : 'Discard'}
      destructive
      onConfirm={confirmed}
      onCancel={cancelled}
    >
      <p>Your edits to rag-mcp.json are not saved. Leaving the Config panel throws them away.</p>
    </ConfirmDialog>
  )
}
