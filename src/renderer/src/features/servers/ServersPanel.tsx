import { PendingPanel } from '../../app/PendingPanel'

/** The Servers panel. */
export function ServersPanel(): React.JSX.Element {
  return <PendingPanel panel="servers" />
}
