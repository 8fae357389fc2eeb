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
import { ReloadHistory } from './ReloadHistory'
import { ImportTab } from './ImportTab'
import './ConfigPanel.css'

const LABELS: Record<ConfigTab, string> = {
  editor: 'rag-mcp.json',
  secrets: 'Secrets',
  import: 'Import',
  history: 'Reload history',
}

const CONTENT: Record<ConfigTab, () => React.ReactNode> = {
  editor: () => <EditorTab />,
  secrets: () => <SecretsPanel />,
  import: () => <ImportTab />,
  history: () => <ReloadHistory />,
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
        <h1 tabIndex={-1}>Config</h1>
        <Tabs
          label="Config"
          idBase="config"
          selected={tab}
          onSelect={tabSelected}
          tabs={CONFIG_TABS.map((id) => ({ id, label: LABELS[id], extra: extra[id] }))}
          className="config-panel__tabs"
        />
      </div>
      {CONFIG_TABS.map((id) => (
        <TabPanel
          key={id}
          idBase="config"
          id={id}
          selected={tab === id}
          // The editor stays mounted while other tabs show: its edits and undo history survive.
          keepMounted={id === 'editor'}
          className={`config-panel__tab config-panel__tab--${id}`}
        >
          {CONTENT[id]()}
        </TabPanel>
      ))}
    </div>
  )
}
