import { AccessPanel } from '../features/access/AccessPanel'
import { AuditPanel } from '../features/audit/AuditPanel'
import { EvaluationPanel } from '../features/evaluation/EvaluationPanel'
import { ConfigPanel } from '../features/config/ConfigPanel'
import { HealthPanel } from '../features/health/HealthPanel'
import { SearchPanel } from '../features/search/SearchPanel'
import { ServersPanel } from '../features/servers/ServersPanel'
import { WorkbenchPanel } from '../features/workbench/WorkbenchPanel'
import type { Panel } from '../state/store'

/** The component each navigation entry shows. */
export const PANEL_VIEWS: Record<Panel, () => React.JSX.Element> = {
  servers: ServersPanel,
  search: SearchPanel,
  access: AccessPanel,
  health: HealthPanel,
  config: ConfigPanel,
  audit: AuditPanel,
  workbench: WorkbenchPanel,
  evaluation: EvaluationPanel,
}
