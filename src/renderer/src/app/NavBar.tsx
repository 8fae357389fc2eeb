import { ariaShortcut, formatShortcut, Icon, Kbd } from '../ui'
import { useNavigationRequested, usePanel } from '../state/store'
import { PANEL_SPECS } from './panels'
import './NavBar.css'

/** The left navigation: one button per panel, with its shortcut as a hint. */
export function NavBar(): React.JSX.Element {
  const panel = usePanel()
  const navigationRequested = useNavigationRequested()
  return (
    <nav className="navbar" aria-label="Main">
      {PANEL_SPECS.map((spec) => (
        <button
          key={spec.id}
          type="button"
          className="navbar__item"
          aria-current={panel === spec.id ? 'page' : undefined}
          aria-keyshortcuts={ariaShortcut(spec.shortcut)}
          title={`${spec.label} (${formatShortcut(spec.shortcut)})`}
          onClick={() => navigationRequested(spec.id)}
        >
          <Icon name={spec.icon} size={15} />
          <span className="navbar__label">{spec.label}</span>
          <Kbd shortcut={spec.shortcut} className="navbar__kbd" />
        </button>
      ))}
    </nav>
  )
}
