import type { IconName } from '../ui'
import { PANELS, type Panel } from '../state/store'

export interface PanelSpec {
  id: Panel
  label: string
  icon: IconName
  /** `Mod+1` … `Mod+6`, in navigation order. */
  shortcut: string
}

const META: Record<Panel, { label: string; icon: IconName }> = {
  servers: { label: 'Servers', icon: 'servers' },
  search: { label: 'Search', icon: 'search' },
  access: { label: 'Access', icon: 'access' },
  health: { label: 'Health', icon: 'health' },
  config: { label: 'Config', icon: 'config' },
  audit: { label: 'Audit', icon: 'audit' },
}

/** The main navigation, in order. */
export const PANEL_SPECS: readonly PanelSpec[] = PANELS.map((id, index) => ({
  id,
  ...META[id],
  shortcut: `Mod+${index + 1}`,
}))

export const panelLabel = (id: Panel): string => META[id].label
