/**
 * The console's panels in navigation order, with their names: the renderer's navigation
 * (Ctrl/⌘+1…8) and the desktop app's View menu are built from this one list.
 */
export const PANELS = [
  'servers',
  'search',
  'access',
  'health',
  'config',
  'audit',
  'workbench',
  'evaluation',
] as const
export type Panel = (typeof PANELS)[number]

export const PANEL_LABELS: Record<Panel, string> = {
  servers: 'Servers',
  search: 'Search',
  access: 'Access',
  health: 'Health',
  config: 'Config',
  audit: 'Audit',
  workbench: 'Workbench',
  evaluation: 'Evaluation',
}

export function isPanel(value: unknown): value is Panel {
  return typeof value === 'string' && (PANELS as readonly string[]).includes(value)
}
