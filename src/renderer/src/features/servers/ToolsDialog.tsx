import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api'
import { useWorkbenchRequested } from '../../state/store'
import { Banner, Button, Dialog, Spinner } from '../../ui'
import { serverKeys, serverQueries } from './queries'

export interface ToolsDialogProps {
  /** The server whose tools to show; null keeps the dialog closed. */
  server: string | null
  onClose: () => void
}

/** The tools a server listed, with their descriptions and input schemas; can list them again. */
export function ToolsDialog({ server, onClose }: ToolsDialogProps): React.JSX.Element | null {
  if (!server) return null
  return <ToolsBody key={server} server={server} onClose={onClose} />
}

function ToolsBody({ server, onClose }: { server: string; onClose: () => void }) {
  const queryClient = useQueryClient()
  const tools = useQuery(serverQueries.tools(server))
  const openInWorkbench = useWorkbenchRequested()
  const [refreshing, setRefreshing] = useState(false)
  const [problem, setProblem] = useState<string>()

  const refresh = async (): Promise<void> => {
    setRefreshing(true)
    setProblem(undefined)
    try {
      const fresh = await call('pool:tools', { server, refresh: true })
      queryClient.setQueryData(serverKeys.tools(server), fresh)
    } catch (error) {
      setProblem((error as Error).message)
    } finally {
      setRefreshing(false)
    }
  }

  const info = tools.data?.serverInfo
  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title={`Tools of ${server}`}
      description={
        info?.name
          ? `${info.name}${info.version ? ` ${info.version}` : ''}, as listed at connect time.`
          : undefined
      }
      footer={
        <>
          <Button icon="refresh" busy={refreshing} onClick={() => void refresh()}>
            List again
          </Button>
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {problem && (
        <Banner tone="bad" title={`Could not list the tools of ${server}`}>
          {problem}
        </Banner>
      )}
      {tools.isPending ? (
        <Spinner label="Loading the tools…" />
      ) : tools.isError ? (
        <Banner tone="bad" title={`Could not load the tools of ${server}`}>
          {tools.error.message}
        </Banner>
      ) : tools.data.tools.length === 0 ? (
        <p className="muted">No tools known: the server has not connected yet, or lists none.</p>
      ) : (
        <ul className="server-tools" aria-label={`Tools of ${server}`}>
          {tools.data.tools.map((tool) => (
            <li key={tool.name} className="server-tools__item">
              <div className="wb-open-tool">
                <code className="server-tools__name">{tool.name}</code>
                <Button
                  variant="ghost"
                  icon="workbench"
                  aria-label={`Open in Workbench: ${tool.name}`}
                  onClick={() => {
                    onClose()
                    openInWorkbench(server, tool.name)
                  }}
                >
                  Open in Workbench
                </Button>
              </div>
              {tool.description && <p className="muted">{tool.description}</p>}
              {tool.inputSchema !== undefined && (
                <details>
                  <summary>Input schema</summary>
                  <pre className="server-tools__schema">
                    {JSON.stringify(tool.inputSchema, null, 2)}
                  </pre>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  )
}
