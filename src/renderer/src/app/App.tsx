import { useQuery } from '@tanstack/react-query'
import { appQueries } from '../features/app/queries'
import { PANELS, usePanel, usePanelSelected, type Panel } from '../state/store'

const LABELS: Record<Panel, string> = {
  servers: 'Servers',
  search: 'Search',
  access: 'Access',
  health: 'Health',
  config: 'Config',
  audit: 'Audit',
}

export function App(): React.JSX.Element {
  const panel = usePanel()
  const panelSelected = usePanelSelected()
  const info = useQuery(appQueries.info())

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">RAG Console</span>
        <span className="registry" title="Registry in use">
          {info.data ? info.data.registry.label : info.isError ? 'registry unknown' : '…'}
        </span>
      </header>
      <nav className="sidebar" aria-label="Main">
        {PANELS.map((id) => (
          <button
            key={id}
            type="button"
            className="nav-item"
            aria-current={panel === id ? 'page' : undefined}
            onClick={() => panelSelected(id)}
          >
            {LABELS[id]}
          </button>
        ))}
      </nav>
      <main className="panel" aria-label={LABELS[panel]}>
        <h1>{LABELS[panel]}</h1>
      </main>
      <footer className="statusbar">
        {info.isError ? (
          <span role="alert">Cannot reach the console core: {info.error.message}</span>
        ) : info.data ? (
          <>
            <span>
              {info.data.productName} {info.data.version}
            </span>
            <span>Node {info.data.versions.node}</span>
            <span title="Data folder">{info.data.dataDir}</span>
          </>
        ) : (
          <span>Connecting…</span>
        )}
      </footer>
    </div>
  )
}
