import { ConfigPanel } from '../features/config/ConfigPanel'
import { usePanel } from '../state/store'
import { AppToasts } from './AppToasts'
import { InvalidRegistryBanner } from './InvalidRegistryBanner'
import { NavBar } from './NavBar'
import { NavigationGuard } from './NavigationGuard'
import { panelLabel } from './panels'
import { PendingPanel } from './PendingPanel'
import { StatusBar } from './StatusBar'
import { TopBar } from './TopBar'
import { useCoreEvents } from './use-core-events'
import { useGlobalShortcuts } from './use-shortcuts'
import './App.css'

/** The window: top bar, navigation, the current panel, status bar, notices. */
export function App(): React.JSX.Element {
  useCoreEvents()
  useGlobalShortcuts()
  const panel = usePanel()
  return (
    <div className="app">
      <TopBar />
      <NavBar />
      <main className="app__main" aria-label={panelLabel(panel)}>
        <InvalidRegistryBanner />
        <div className="app__panel">
          {panel === 'config' ? <ConfigPanel /> : <PendingPanel panel={panel} />}
        </div>
      </main>
      <StatusBar />
      <NavigationGuard />
      <AppToasts />
    </div>
  )
}
