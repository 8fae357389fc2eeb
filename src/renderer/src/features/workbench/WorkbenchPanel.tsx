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

const TABS: readonly { id: WorkbenchTab; label: string }[] = [
  { id: 'tools', label: 'Tools' },
  { id: 'resources', label: 'Resources' },
  { id: 'prompts', label: 'Prompts' },
  { id: 'log', label: 'Protocol log' },
]

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
      label: `${t.server} (tried: ${t.url ?? t.command ?? ''})`,
    })),
  ]
  const server = options.find((o) => o.value === selected)?.value ?? options[0]?.value
  const tryServer = tried.data?.find((t) => t.server === server)
  return (
    <div className="workbench">
      <div className="workbench__head">
        <h1>Workbench</h1>
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
          <Tabs label="Workbench" idBase="wb" tabs={TABS} selected={tab} onSelect={selectTab} />
          <TabPanel idBase="wb" id="tools" selected={tab === 'tools'} className="workbench__tab">
            <ToolsTab key={server} server={server} />
          </TabPanel>
          <TabPanel
            idBase="wb"
            id="resources"
            selected={tab === 'resources'}
            className="workbench__tab"
          >
            <ResourcesTab key={server} server={server} />
          </TabPanel>
          <TabPanel
            idBase="wb"
            id="prompts"
            selected={tab === 'prompts'}
            className="workbench__tab"
          >
            <PromptsTab key={server} server={server} />
          </TabPanel>
          <TabPanel
            idBase="wb"
            id="log"
            selected={tab === 'log'}
            keepMounted
            className="workbench__tab"
          >
            <ProtocolLog key={server} server={server} />
          </TabPanel>
        </>
      )}
      <TryServerDialog open={trying} onClose={() => setTrying(false)} onTried={select} />
    </div>
  )
}
