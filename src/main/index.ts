import { app, BrowserWindow, ipcMain, Menu, net, protocol, shell } from 'electron'
import { join, normalize, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { contentSecurityPolicy, isExternalHttpUrl } from '../shared/csp'
import { createCore } from './core/core'
import { createHandlers } from './core/api/handlers'
import { bindIpc } from './ipc/bind'
import { preloadPath, rendererDir } from './paths'

const APP_ORIGIN = 'app://renderer'

protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
])

function configArgument(argv: string[]): string | undefined {
  const index = argv.indexOf('--config')
  if (index >= 0) return argv[index + 1]
  return argv.find((arg) => arg.startsWith('--config='))?.slice('--config='.length)
}

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

async function main(): Promise<void> {
  await app.whenReady()
  const core = await createCore({
    dataDir: app.getPath('userData'),
    connect: true,
    versions: { electron: process.versions.electron, chrome: process.versions.chrome },
    ...(configArgument(process.argv) ? { configPath: configArgument(process.argv)! } : {}),
  })

  const devUrl = process.env.ELECTRON_RENDERER_URL
  if (!devUrl) serveRenderer(rendererDir())
  const startUrl = devUrl ?? `${APP_ORIGIN}/index.html`
  const isAppUrl = (url: string): boolean =>
    devUrl ? url.startsWith(devUrl) : url.startsWith(`${APP_ORIGIN}/`)

  const window = new BrowserWindow({
    width: 1360,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'RAG Console',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath(),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  })
  Menu.setApplicationMenu(null)

  // No new windows, no navigation away from the app; http(s) links go to the system browser
  // only through window.ragConsole.openExternal (which demands a user click).
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
  window.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  window.webContents.session.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
  )

  const unbind = bindIpc({
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
