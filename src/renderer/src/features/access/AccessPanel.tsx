import { PendingPanel } from '../../app/PendingPanel'

/** The Access panel. */
export function AccessPanel(): React.JSX.Element {
  return <PendingPanel panel="access" />
}
