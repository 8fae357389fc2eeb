import { ProfileSwitcher } from '../features/profiles/ProfileSwitcher'
import { RegistrySourceInfo } from './RegistrySourceInfo'

/** Brand, where the registry comes from, and who the console acts as. */
export function TopBar(): React.JSX.Element {
  return (
    <header className="topbar">
      <span className="topbar__brand">
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <rect x="1" y="1" width="14" height="14" rx="3" className="topbar__logo" />
          <path d="M5 11V5h3.2a1.8 1.8 0 0 1 0 3.6H5M8 8.6 11 11" className="topbar__logo-mark" />
        </svg>
        <span className="topbar__name">RAG Console</span>
      </span>
      <RegistrySourceInfo />
      <span className="topbar__spacer" />
      <ProfileSwitcher />
    </header>
  )
}
