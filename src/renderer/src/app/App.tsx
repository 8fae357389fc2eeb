import { useEffect, useRef } from 'react'
import { usePanel, usePanelFocus } from '../state/store'
import { ElicitationDialog } from '../features/elicitation/ElicitationDialog'
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
  const mainRef = useRef<HTMLElement>(null)
  const panelFocus = usePanelFocus()
  useEffect(() => {
    const main = mainRef.current
    if (panelFocus === 0 || !main) return
    // The panel's heading takes focus (the next Tab reaches its first control); a panel still
    // loading gets it when the heading appears.
    const focusHeading = (): boolean => {
      const heading = main.querySelector<HTMLElement>('h1')
      heading?.focus()
      return heading !== null
    }
    if (focusHeading()) return
    const observer = new MutationObserver(() => focusHeading() && observer.disconnect())
    observer.observe(main, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [panelFocus])
  return (
    <div className="app">
      <TopBar />
      <NavBar />
      <main ref={mainRef} className="app__main" aria-label={panelLabel(panel)}>
        <InvalidRegistryBanner />
        <StartupNotices />
        <div className="app__panel">
          <View />
        </div>
      </main>
      <StatusBar />
      <NavigationGuard />
      <AppToasts />
      <ElicitationDialog />
    </div>
  )
}
