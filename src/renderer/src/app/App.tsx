import { usePanel } from '../state/store'
import { AppToasts } from './AppToasts'
import { InvalidRegistryBanner } from './InvalidRegistryBanner'
import { NavBar } from './NavBar'
import { NavigationGuard } from './NavigationGuard'
import { panelLabel } from './panels'
import { PANEL_VIEWS } from './panel-views'
import { StartupNotices } from './StartupNotices'
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
  const View = PANEL_VIEWS[panel]
  return (
    <div className="app">
      <TopBar />
      <NavBar />
      <main className="app__main" aria-label={panelLabel(panel)}>
        <InvalidRegistryBanner />
        <StartupNotices />
        <div className="app__panel">
          <View />
        </div>
      </main>
      <StatusBar />
      <NavigationGuard />
      <AppToasts />
    </div>
  )
}
