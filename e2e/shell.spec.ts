import { expect, screenshotPath, test } from './host'

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

  await page.screenshot({ path: screenshotPath('shell-light') })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: screenshotPath('shell-dark') })
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
