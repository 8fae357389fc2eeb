import { useQuery } from '@tanstack/react-query'
import { SecretsPanel } from '../secrets/SecretsPanel'
import { secretQueries } from '../secrets/queries'
import {
  CONFIG_TABS,
  useConfigDirty,
  useConfigTab,
  useConfigTabSelected,
  type ConfigTab,
} from '../../state/store'
import { Badge, TabPanel, Tabs } from '../../ui'
import { EditorTab } from './EditorTab'
import { HistoryTab } from './HistoryTab'
import { ImportTab } from './ImportTab'
import './ConfigPanel.css'

const LABELS: Record<ConfigTab, string> = {
  editor: 'rag-mcp.json',
  secrets: 'Secrets',
  import: 'Import',
  history: 'Reload history',
}

/** The registry file, its secrets, imports and reload history. */
export function ConfigPanel(): React.JSX.Element {
  const tab = useConfigTab()
  const tabSelected = useConfigTabSelected()
  const dirty = useConfigDirty()
  const secrets = useQuery(secretQueries.list())
  const missing =
    secrets.data?.servers.flatMap((s) => s.refs).filter((r) => r.present === false).length ?? 0
  const extra: Partial<Record<ConfigTab, React.ReactNode>> = {
    editor: dirty ? <Badge tone="warn">edited</Badge> : null,
    secrets: missing > 0 ? <Badge tone="bad">{missing} missing</Badge> : null,
  }
  return (
    <div className="config-panel">
      <div className="config-panel__head">
        <h1>Config</h1>
        <Tabs
          label="Config"
          idBase="config"
          selected={tab}
          onSelect={tabSelected}
          tabs={CONFIG_TABS.map((id) => ({ id, label: LABELS[id], extra: extra[id] }))}
          className="config-panel__tabs"
        />
      </div>
      {/* The editor stays mounted while other tabs show: its undo history and edits survive. */}
      <TabPanel
        idBase="config"
        id="editor"
        selected={tab === 'editor'}
        keepMounted
        className="config-panel__tab config-panel__tab--editor"
      >
        <EditorTab />
      </TabPanel>
      <TabPanel
        idBase="config"
        id="secrets"
        selected={tab === 'secrets'}
        className="config-panel__tab"
      >
        <SecretsPanel />
      </TabPanel>
      <TabPanel
        idBase="config"
        id="import"
        selected={tab === 'import'}
        className="config-panel__tab"
      >
        <ImportTab />
      </TabPanel>
      <TabPanel
        idBase="config"
        id="history"
        selected={tab === 'history'}
        className="config-panel__tab"
      >
        <HistoryTab />
      </TabPanel>
    </div>
  )
}
