import { editor, expect, manyServers, openConfig, screenshots, test } from './console'

const LONG =
  'a-rather-long-folder-name-for-the-team/and-another-level/registry-configuration-files/production'

test('twenty servers and a long path stay readable in the editor and history', async ({
  page,
  launch,
}) => {
  const { host, file } = await launch(manyServers(20), { subdir: LONG })
  await page.goto(host.url)
  await openConfig(page)
  await expect(editor(page)).toContainText('"server01"')

  // Long paths are cut in the middle, the file name stays, the whole path is in the title.
  const path = page.getByRole('toolbar', { name: 'Config file' }).locator('code')
  await expect(path).toHaveAttribute('title', file)
  await expect(path).toContainText('production/rag-mcp.json')
  const source = page.getByRole('button', { name: `Registry: ${file}` })
  await expect(source).toContainText('…')
  await screenshots(page, 'config-20-servers')

  // Nothing in the top bar spills out of the window.
  const overflow = await page.evaluate(() => {
    const bar = document.querySelector('header')!
    return bar.scrollWidth - bar.clientWidth
  })
  expect(overflow).toBeLessThanOrEqual(0)

  await openConfig(page, 'Reload history')
  await expect(page.getByRole('list', { name: 'Reload history' })).toContainText('20 added')
  await screenshots(page, 'config-history-20-servers')
})

test('the embedded demo registry opens in the editor with where saving puts it', async ({
  page,
}) => {
  const { launchHost } = await import('./host')
  const host = await launchHost()
  try {
    await page.goto(host.url)
    await openConfig(page)
    const banner = page
      .getByRole('status')
      .filter({ hasText: 'This is the embedded demo registry' })
    await expect(banner).toContainText(`${host.dataDir}/config/overrides/rag-mcp.json`)
    await expect(page.getByRole('button', { name: 'Save…' })).toBeEnabled()
    await screenshots(page, 'config-demo-registry')
  } finally {
    await host.stop()
  }
})
