import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { _electron as electron } from '@playwright/test'
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

test('the Electron window shows the app through the preload', async () => {
  const reason =
    'no Electron binary on this machine (it cannot be downloaded here); ran the browser host specs instead'
  if (!binary) console.log(`skipped Electron spec: ${reason}`)
  test.skip(!binary, reason)
  const app = await electron.launch({
    executablePath: binary!,
    args: [join(root, 'out/main/index.js')],
    env: { ...process.env, RAG_CONSOLE_HOME: join(root, 'test-results/electron-home') },
  })
  const window = await app.firstWindow()
  await expect(window.getByRole('contentinfo')).toContainText(/RAG Console \d+\.\d+\.\d+/)
  expect(
    await window.evaluate(() => typeof (window as unknown as { require?: unknown }).require),
  ).toBe('undefined')
  await app.close()
})
