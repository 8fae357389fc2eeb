import { PANEL_LABELS } from '#shared/panels'
import type { IconName } from '../ui'
import { PANELS, type Panel } from '../state/store'

export interface PanelSpec {
  id: Panel
  label: string
  icon: IconName
  /** `Mod+1` … `Mod+8`, in navigation order. */
  shortcut: string
}

const ICONS: Record<Panel, IconName> = {
  servers: 'servers',
  search: 'search',
  access: 'access',
  health: 'health',
  config: 'config',
  audit: 'audit',
  workbench: 'workbench',
  evaluation: 'evaluation',
}

/** The main navigation, in order. */
export const PANEL_SPECS: readonly PanelSpec[] = PANELS.map((id, index) => ({
  id,
  label: PANEL_LABELS[id],
  icon: ICONS[id],
  shortcut: `Mod+${index + 1}`,
}))

export const panelLabel = (id: Panel): string => PANEL_LABELS[id]
