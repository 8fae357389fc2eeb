import { PendingPanel } from '../../app/PendingPanel'

/** The Search panel. */
export function SearchPanel(): React.JSX.Element {
  return <PendingPanel panel="search" />
}
