import { PendingPanel } from '../../app/PendingPanel'

/** The Health panel. */
export function HealthPanel(): React.JSX.Element {
  return <PendingPanel panel="health" />
}
