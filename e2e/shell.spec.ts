import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { acquireLock } from '#test/support/process/lock'
import { expect, launchHost, screenshot, test } from './host'

test('the renderer reaches the core through window.ragConsole', async ({ page, host }) => {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))

  await page.goto(host.url)
  await expect(page.getByRole('contentinfo')).toContainText(/RAG Console \d+\.\d+\.\d+/)
  await expect(page.getByRole('contentinfo')).toContainText(host.dataDir)
  await expect(page.getByRole('banner')).toContainText('demo registry')
  // The token left the address bar once the bridge took it.
  expect(page.url()).not.toContain('token=')
  expect(problems).toEqual([])

  await screenshot(page, 'shell-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'shell-dark')
})

test('a page with a wrong token is refused by the host', async ({ page, host }) => {
  await page.goto(host.url.replace(/#token=.*/, '#token=forged'))
  // The status bar says so (the panel that failed to load says it too).
  await expect(page.getByRole('contentinfo').getByRole('alert')).toContainText('refused this page')
})

test('the main navigation is reachable by keyboard', async ({ page, host }) => {
  await page.goto(host.url)
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('button', { name: 'Servers' })).toHaveAttribute('aria-current', 'page')
  await nav.getByRole('button', { name: 'Search' }).focus()
  await page.keyboard.press('Enter')
  await expect(nav.getByRole('button', { name: 'Search' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('main', { name: 'Search' })).toBeVisible()
})

test('a page without the launch token cannot talk to the core', async ({ page, host }) => {
  await page.goto(host.url.replace(/#token=.*/, ''))
  await expect(page.getByRole('contentinfo').getByRole('alert')).toContainText('open the exact URL')
  await expect(page.getByRole('banner')).not.toContainText('demo registry')
})

test('the no-keychain notice is one line with how to fix it, and once dismissed stays away after a restart', async ({
  page,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rc-e2e-notice-'))
  // No Secret Service for these hosts, even inside with-keyring.sh: a session bus that is not there.
  const env = {
    HOME: dataDir,
    XDG_CONFIG_HOME: join(dataDir, '.config'),
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dataDir, 'no-bus')}`,
  }
  // The embedded registry's demo servers take fixed ports: one test at a time (e2e/console.ts).
  const release = await acquireLock('demo-ports')
  try {
    await noticeAcrossRestart(page, dataDir, env)
  } finally {
    await release()
  }
})

/** The notice on a first host, dismissed; a second host on the same data folder. */
async function noticeAcrossRestart(
  page: Page,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const first = await launchHost({ dataDir, env })
  try {
    await page.goto(first.url)
    const notice = page.getByRole('alert').filter({ hasText: 'No usable keychain' })
    await expect(notice).toBeVisible()
    expect((await notice.boundingBox())!.height).toBeLessThanOrEqual(40)
    await notice.getByText('How to fix').click()
    await expect(notice).toContainText('restart the console')
    await screenshot(page, 'shell-keychain-notice')
    await notice.getByRole('button', { name: 'Dismiss' }).click()
    await expect(notice).toBeHidden()
    // Gone from the panel: not even after a reload of the page.
    await page.reload()
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await expect(page.getByText('No usable keychain')).toBeHidden()
  } finally {
    await first.stop()
  }
  const second = await launchHost({ dataDir, env })
  try {
    await page.goto(second.url)
    await expect(page.getByRole('banner')).toContainText('demo registry')
    await expect(page.getByRole('main', { name: 'Servers' })).toBeVisible()
    await expect(page.getByText('No usable keychain')).toBeHidden()
  } finally {
    await second.stop()
  }
}
