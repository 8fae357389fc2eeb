import { ToastList } from '../ui'
import { useNoticeDismissed, useToasts } from '../state/store'

/** The notices posted anywhere in the app. */
export function AppToasts(): React.JSX.Element {
  const toasts = useToasts()
  const dismissed = useNoticeDismissed()
  return <ToastList toasts={toasts} onDismiss={dismissed} />
}
