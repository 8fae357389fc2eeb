import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import {
  useWorkbenchServer,
  useWorkbenchServerSelected,
  useWorkbenchTab,
  useWorkbenchTabSelected,
  type WorkbenchTab,
} from '../../state/store'
import { Button, EmptyState, Select, Spinner, TabPanel, Tabs } from '../../ui'
import { serverQueries } from '../servers/queries'
import { ProtocolLog } from './ProtocolLog'
import { PromptsTab } from './PromptsTab'
import { workbenchQueries } from './queries'
import { ResourcesTab } from './ResourcesTab'
import { ToolsTab } from './ToolsTab'
import { TriedServer } from './TriedServer'
import { TryServerDialog } from './TryServerDialog'
import './WorkbenchPanel.css'

interface TabView {
  id: WorkbenchTab
  label: string
  /** `shown`: its tab is the one selected (a kept view may be mounted and hidden). */
  view: (props: { server: string; shown: boolean }) => React.JSX.Element
  /** Stays mounted while hidden: the protocol log keeps its level, pins and filter (not live). */
  keep?: boolean
  /** Shown only when the server declares this capability (or declares nothing: no handshake). */
  capability?: string
}

const TABS: readonly TabView[] = [
  { id: 'tools', label: 'Tools', view: ToolsTab },
  { id: 'resources', label: 'Resources', view: ResourcesTab, capability: 'resources' },
  { id: 'prompts', label: 'Prompts', view: PromptsTab, capability: 'prompts' },
  { id: 'log', label: 'Protocol log', view: ProtocolLog, keep: true },
]

/**
 * The tabs for a server: a Resources or Prompts tab only when its `initialize` declared that
 * capability (or nothing is known: a server talked to without the handshake).
 */
function tabsFor(capabilities: readonly string[] | undefined): readonly TabView[] {
  if (!capabilities) return TABS
  return TABS.filter((t) => !t.capability || capabilities.includes(t.capability))
}

/**
 * The protocol workbench: any tool of any server called with a form from its schema, its
 * resources and prompts, the JSON-RPC traffic, and servers tried without saving them.
 */
export function WorkbenchPanel() {
  const servers = useQuery(serverQueries.list())
  const tried = useQuery(workbenchQueries.tried())
  const selected = useWorkbenchServer()
  const select = useWorkbenchServerSelected()
  const tab = useWorkbenchTab()
  const selectTab = useWorkbenchTabSelected()
  const [trying, setTrying] = useState(false)

  const options = [
    ...(servers.data ?? []).filter((s) => s.visible).map((s) => ({ value: s.id, label: s.id })),
    ...(tried.data ?? []).map((t) => ({
      value: t.server,
      // What it runs is in the banner below: the list only says it is tried.
      label: `${t.server} (tried)`,
    })),
  ]
  const server = options.find((o) => o.value === selected)?.value ?? options[0]?.value
  const tryServer = tried.data?.find((t) => t.server === server)
  const known = useQuery({ ...workbenchQueries.tools(server ?? ''), enabled: server !== undefined })
  const tabs = tabsFor(known.data?.serverInfo?.capabilities)
  // A hidden tab (the server offers none of it) shows the tools instead.
  const shown = tabs.some((t) => t.id === tab) ? tab : 'tools'
  return (
    <div className="workbench">
      <div className="workbench__head">
        <h1 tabIndex={-1}>Workbench</h1>
        {options.length > 0 && server && (
          <Select
            label="Server"
            inline
            value={server}
            options={options}
            onChange={select}
            fieldClassName="workbench__server"
          />
        )}
        <Button icon="plus" onClick={() => setTrying(true)}>
          Try a server…
        </Button>
      </div>
      {tryServer && <TriedServer tried={tryServer} />}
      {servers.isPending ? (
        <Spinner label="Loading the servers…" />
      ) : !server ? (
        <EmptyState icon="workbench" title="No server to work with">
          Add one to rag-mcp.json, or try one without saving it.
        </EmptyState>
      ) : (
        <>
          <Tabs label="Workbench" idBase="wb" tabs={tabs} selected={shown} onSelect={selectTab} />
          {tabs.map(({ id, view: View, keep }) => (
            <TabPanel
              key={id}
              idBase="wb"
              id={id}
              selected={shown === id}
              keepMounted={keep ?? false}
              className="workbench__tab"
            >
              <View key={server} server={server} shown={tab === id} />
            </TabPanel>
          ))}
        </>
      )}
      <TryServerDialog open={trying} onClose={() => setTrying(false)} onTried={select} />
    </div>
  )
}
