import { PANELS, PANEL_LABELS, type Panel } from '#shared/panels'

/** The Electron menu roles this menu uses (a subset of Electron's own union). */
export type MenuRole =
  | 'about'
  | 'services'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'quit'
  | 'close'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'pasteAndMatchStyle'
  | 'delete'
  | 'selectAll'
  | 'reload'
  | 'forceReload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'minimize'
  | 'zoom'
  | 'front'
  | 'window'
  | 'help'

/**
 * One menu entry, shaped like Electron's `MenuItemConstructorOptions` so the template goes to
 * `Menu.buildFromTemplate` as is, while this module (and its tests) never load Electron.
 */
export interface MenuItemTemplate {
  id?: string
  label?: string
  role?: MenuRole
  type?: 'separator'
  accelerator?: string
  submenu?: MenuItemTemplate[]
  click?: () => void
}

export interface MenuActions {
  showPanel: (panel: Panel) => void
  openDataFolder: () => void
}

export interface MenuOptions {
  platform: NodeJS.Platform
  appName: string
  /** Developer tools only while developing (not in a packaged app). */
  developer: boolean
  actions: MenuActions
}

const separator: MenuItemTemplate = { type: 'separator' }

/**
 * The application menu: the platform's standard Edit roles (without them ⌘C/⌘V do nothing in
 * text fields on macOS), the panels under View with the renderer's Ctrl/⌘+1…8, Window and Help.
 */
export function buildMenuTemplate(options: MenuOptions): MenuItemTemplate[] {
  const { platform, appName, developer, actions } = options
  const mac = platform === 'darwin'
  const openDataFolder: MenuItemTemplate = {
    id: 'open-data-folder',
    label: 'Open Data Folder',
    click: actions.openDataFolder,
  }

  const appMenu: MenuItemTemplate = {
    label: appName,
    submenu: [
      { role: 'about' },
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  }
  const fileMenu: MenuItemTemplate = {
    label: 'File',
    submenu: [mac ? { role: 'close' } : { role: 'quit' }],
  }
  const editMenu: MenuItemTemplate = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  }
  const viewMenu: MenuItemTemplate = {
    label: 'View',
    submenu: [
      ...PANELS.map((panel, index): MenuItemTemplate => ({
        id: `panel-${panel}`,
        label: PANEL_LABELS[panel],
        accelerator: `CmdOrCtrl+${index + 1}`,
        click: () => actions.showPanel(panel),
      })),
      separator,
      { role: 'reload' },
      ...(developer ? [{ role: 'forceReload' } as const, { role: 'toggleDevTools' } as const] : []),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  }
  const windowMenu: MenuItemTemplate = {
    label: 'Window',
    role: 'window',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  }
  const helpMenu: MenuItemTemplate = {
    label: 'Help',
    role: 'help',
    submenu: mac ? [openDataFolder] : [openDataFolder, separator, { role: 'about' }],
  }
  return [...(mac ? [appMenu] : []), fileMenu, editMenu, viewMenu, windowMenu, helpMenu]
}
