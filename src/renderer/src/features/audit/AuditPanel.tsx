import { PendingPanel } from '../../app/PendingPanel'

/** The Audit panel. */
export function AuditPanel(): React.JSX.Element {
  return <PendingPanel panel="audit" />
}
