import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, screen, shell } from 'electron'
import { join, normalize, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { contentSecurityPolicy, isExternalHttpUrl } from '#shared/csp'
import type { Panel } from '#shared/panels'
import { buildMenuTemplate } from './app-menu'
import { appRoot } from '#core/app-root'
import { createCore, type Core } from '#core/core'
import { createHandlers } from '#core/api/handlers'
import { defaultDataDir } from '#core/paths'
import { demoBootstrap } from './demo-bootstrap/bootstrap'
import { bindIpc } from './ipc/bind'
import { launchRequest, receivedLaunchRequest, secondLaunchAction } from './launch-args'
import { preloadPath, rendererDir } from './paths'
import {
  MIN_SIZE,
  placeWindow,
  readWindowState,
  windowStateFile,
  WindowStateSaver,
} from './window-state'

const APP_ORIGIN = 'app://renderer'

protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
])

// The CLI and the browser host use this folder too (RAG_CONSOLE_HOME overrides it for all).
const dataDir = defaultDataDir()
app.setPath('userData', dataDir)

/** Serves the built renderer from app://renderer/ with a strict CSP; nothing outside it. */
function serveRenderer(root: string): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url)
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname)
    const file = normalize(join(root, relative))
    if (url.host !== 'renderer' || !file.startsWith(root + sep)) {
      return new Response('not found', { status: 404 })
    }
    const response = await net.fetch(pathToFileURL(file).toString())
    const headers = new Headers(response.headers)
    headers.set('Content-Security-Policy', contentSecurityPolicy())
    headers.set('X-Content-Type-Options', 'nosniff')
    return new Response(response.body, { status: response.status, headers })
  })
}

const startCore = (configPath: string | undefined): Promise<Core> =>
  createCore({
    dataDir,
    connect: true,
    demo: demoBootstrap(),
    monitor: true,
    // Forms servers send are answered in the window (the elicitation dialog).
    elicit: 'windows',
    versions: { electron: process.versions.electron, chrome: process.versions.chrome },
    ...(configPath ? { configPath } : {}),
  })

/** A window at its remembered size and place, clamped to the displays there are now. */
function createWindow(iconPath: string): BrowserWindow {
  const stateFile = windowStateFile(dataDir)
  const primary = screen.getPrimaryDisplay()
  const workAreas = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map(
    (display) => display.workArea,
  )
  const placement = placeWindow(readWindowState(stateFile), workAreas)
  const window = new BrowserWindow({
    ...placement.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: app.getName(),
    icon: iconPath,
    webPreferences: {
      preload: preloadPath(),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  })
  if (placement.maximized) window.maximize()
  const saver = new WindowStateSaver(
    stateFile,
    () => ({ bounds: window.getNormalBounds(), maximized: window.isMaximized() }),
    (error) => console.error('RAG Console could not save the window position:', error),
  )
  // Saved as it changes, not only on close: a killed or crashed app keeps its place too.
  window.on('resize', () => saver.changed())
  window.on('move', () => saver.changed())
  window.on('maximize', () => saver.changed())
  window.on('unmaximize', () => saver.changed())
  window.on('close', () => saver.flush())
  // The Config editor holds back a reload or close while edits are unsaved; ask, as the
  // browser would.
  window.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(window, {
      type: 'question',
      buttons: ['Discard changes', 'Keep editing'],
      defaultId: 1,
      cancelId: 1,
      message: 'Discard unsaved changes?',
      detail: 'Your edits to rag-mcp.json are not saved.',
    })
    if (choice === 0) event.preventDefault()
  })
  return window
}

async function main(): Promise<void> {
  const request = launchRequest(process.argv, process.cwd())
  // One instance per data folder: a second launch hands over its --config and quits.
  if (!app.requestSingleInstanceLock({ ...request })) {
    app.quit()
    return
  }
  await app.whenReady()
  const iconPath = join(appRoot(), 'resources', 'icons', 'icon.png')
  app.setAboutPanelOptions({ applicationVersion: app.getVersion(), iconPath })
  if (!app.isPackaged) app.dock?.setIcon(iconPath)

  let configPath = request.configPath
  let core = await startCore(configPath)

  const devUrl = process.env.ELECTRON_RENDERER_URL
  if (!devUrl) serveRenderer(rendererDir())
  const startUrl = devUrl ?? `${APP_ORIGIN}/index.html`
  const isAppUrl = (url: string): boolean =>
    devUrl ? url.startsWith(devUrl) : url.startsWith(`${APP_ORIGIN}/`)

  const window = createWindow(iconPath)
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        platform: process.platform,
        appName: app.getName(),
        developer: !app.isPackaged,
        actions: {
          showPanel: (panel: Panel) => core.events.emit('app:show-panel', { panel }),
          openDataFolder: () => void shell.openPath(dataDir),
        },
      }),
    ),
  )

  // No new windows, no navigation away from the app; http(s) links go to the system browser
  // only through window.ragConsole.openExternal (which demands a user click).
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
  window.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  window.webContents.session.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
  )

  const bind = (): (() => void) =>
    bindIpc({
      ipcMain,
      window,
      handlers: createHandlers(core, {
        openExternal: async (url) => {
          if (isExternalHttpUrl(url)) await shell.openExternal(url)
        },
      }),
      events: core.events,
      redactor: core.redactor,
      isAppUrl,
    })
  let unbind = bind()

  /** Moves the window onto another registry: a new core, then the page reloads on it. */
  const switchRegistry = async (path: string): Promise<void> => {
    let next: Core
    try {
      next = await startCore(path)
    } catch (error) {
      const message = `Could not open ${path}: ${error instanceof Error ? error.message : String(error)}`
      core.events.emit('app:notice', { level: 'error', message, at: Date.now() })
      return
    }
    unbind()
    const previous = core
    core = next
    configPath = path
    unbind = bind()
    window.webContents.reload()
    await previous.dispose()
  }

  app.on('second-instance', (_event, argv, workingDirectory, data) => {
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
    const action = secondLaunchAction(
      configPath,
      receivedLaunchRequest(data, argv, workingDirectory),
    )
    if (action.kind !== 'switch') return
    void dialog
      .showMessageBox(window, {
        type: 'question',
        buttons: ['Open', 'Cancel'],
        defaultId: 0,
        cancelId: 1,
        message: `Open the registry ${action.configPath}?`,
        detail: 'The window reloads on that registry.',
      })
      .then(({ response }) => (response === 0 ? switchRegistry(action.configPath) : undefined))
  })

  window.once('ready-to-show', () => window.show())
  await window.loadURL(startUrl)

  app.on('window-all-closed', () => app.quit())
  app.on('before-quit', () => {
    unbind()
    void core.dispose()
  })
}

main().catch((error: unknown) => {
  console.error('RAG Console failed to start:', error)
  app.exit(1)
})
