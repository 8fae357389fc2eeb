import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron as electron, type ElectronApplication } from '@playwright/test'
import { expect, root, test } from './host'

/** The Electron binary, if this machine has one (it is never downloaded by the tests). */
function electronBinary(): string | null {
  const pkg = join(root, 'node_modules/electron')
  const pathFile = join(pkg, 'path.txt')
  if (!existsSync(pathFile)) return null
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}

const binary = electronBinary()
const reason =
  'no Electron binary on this machine (it cannot be downloaded here); ran the browser host specs instead'

test.beforeEach(() => {
  if (!binary) console.log(`skipped Electron spec: ${reason}`)
  test.skip(!binary, reason)
})

/** A private data folder and two empty registries, so no demo server starts. */
function workspace(): { home: string; registry: string; other: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rc-electron-'))
  const registry = join(dir, 'empty-rag-mcp.json')
  const other = join(dir, 'other-rag-mcp.json')
  for (const file of [registry, other]) writeFileSync(file, '{}\n')
  return { home: join(dir, 'home'), registry, other }
}

const launch = (home: string, args: string[] = []): Promise<ElectronApplication> =>
  electron.launch({
    executablePath: binary!,
    args: [join(root, 'out/main/index.js'), ...args],
    env: { ...process.env, RAG_CONSOLE_HOME: home },
  })

test('the Electron window shows the app through the preload', async () => {
  const app = await launch(join(root, 'test-results/electron-home'))
  const window = await app.firstWindow()
  await expect(window.getByRole('contentinfo')).toContainText(/RAG Console \d+\.\d+\.\d+/)
  expect(
    await window.evaluate(() => typeof (window as unknown as { require?: unknown }).require),
  ).toBe('undefined')
  await app.close()
})

test('the app and rag-console use the same data folder', async () => {
  const { home, registry } = workspace()
  const app = await launch(home, ['--config', registry])
  await app.firstWindow()
  expect(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(home)
  await app.close()
})

test('the menu has the Edit roles and opens the panels', async () => {
  const { home, registry } = workspace()
  const app = await launch(home, ['--config', registry])
  const window = await app.firstWindow()
  const menu = await app.evaluate(({ Menu }) =>
    Menu.getApplicationMenu()!.items.map((item) => ({
      label: item.label,
      roles: item.submenu?.items.map((sub) => sub.role?.toLowerCase() ?? sub.label) ?? [],
    })),
  )
  expect(menu.find((item) => item.label === 'Edit')?.roles).toEqual(
    expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectall']),
  )
  expect(menu.find((item) => item.label === 'View')?.roles).toEqual(
    expect.arrayContaining(['Servers', 'Search', 'Access', 'Health', 'Config', 'Audit']),
  )
  await expect(window.getByRole('main', { name: 'Servers' })).toBeVisible()
  await app.evaluate(({ Menu }) =>
    Menu.getApplicationMenu()!.getMenuItemById('panel-audit')!.click(),
  )
  await expect(window.getByRole('main', { name: 'Audit' })).toBeVisible()
  await app.close()
})

test('a second launch focuses the first and hands over its --config', async () => {
  const { home, registry, other } = workspace()
  const app = await launch(home, ['--config', other])
  const window = await app.firstWindow()
  await expect(
    window.getByRole('button', { name: /Registry: .*other-rag-mcp\.json/ }),
  ).toBeVisible()
  // The confirmation is a native dialog: answer it "Open" from the main process.
  await app.evaluate(({ dialog }) => {
    const asked: string[] = []
    ;(globalThis as { asked?: string[] }).asked = asked
    dialog.showMessageBox = (async (_window: unknown, options: { message: string }) => {
      asked.push(options.message)
      return { response: 0, checkboxChecked: false }
    }) as typeof dialog.showMessageBox
  })

  const second = spawn(binary!, [join(root, 'out/main/index.js'), '--config', registry], {
    env: { ...process.env, RAG_CONSOLE_HOME: home },
    stdio: 'ignore',
  })
  const code = await new Promise<number | null>((done) => second.once('exit', done))
  expect(code).toBe(0)

  await expect
    .poll(() => app.evaluate(() => (globalThis as { asked?: string[] }).asked ?? []))
    .toEqual([`Open the registry ${registry}?`])
  await expect(
    window.getByRole('button', { name: /Registry: .*empty-rag-mcp\.json/ }),
  ).toBeVisible()
  await app.close()
})

test('the window reopens where it was closed, on screen', async () => {
  const { home, registry } = workspace()
  const bounds = { x: 40, y: 30, width: 1000, height: 700 }
  const first = await launch(home, ['--config', registry])
  await first.firstWindow()
  await first.evaluate(
    ({ BrowserWindow }, b) => BrowserWindow.getAllWindows()[0]!.setBounds(b),
    bounds,
  )
  await first.close()
  const saved = JSON.parse(readFileSync(join(home, 'window-state.json'), 'utf8')) as {
    bounds: typeof bounds
  }
  expect(saved.bounds).toMatchObject({ width: bounds.width, height: bounds.height })

  const second = await launch(home, ['--config', registry])
  await second.firstWindow()
  const reopened = await second.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows()[0]!.getBounds(),
  )
  expect(reopened).toMatchObject({ width: bounds.width, height: bounds.height })
  await second.close()
})
