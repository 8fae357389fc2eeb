import type { Panel } from '../state/store'
import { EmptyState, Spinner } from '../ui'
import { PANEL_SPECS } from './panels'

const WHAT: Partial<Record<Panel, string>> = {
  servers: 'servers, their status and data sources',
  search: 'search across providers',
  access: 'citation access checks',
  health: 'latency and error charts',
  audit: 'the audit log',
}

/** A panel whose data layer is not in this build yet: says so, shows no made-up data. */
export function PendingPanel({ panel }: { panel: Panel }): React.JSX.Element {
  const spec = PANEL_SPECS.find((p) => p.id === panel)
  return (
    <EmptyState
      icon={spec?.icon}
      title={<Spinner label={`Loading ${spec?.label ?? panel}…`} />}
      className="pending-panel"
    >
      {WHAT[panel] ? `This view (${WHAT[panel]}) arrives with the console's services layer.` : null}
    </EmptyState>
  )
}
