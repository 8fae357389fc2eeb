import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  editor,
  expect,
  httpServer,
  manyServers,
  openConfig,
  registryText,
  screenshots,
  test,
} from './console'

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
  const source = page.getByRole('button', { name: /^Registry: .*production\/rag-mcp\.json$/ })
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
  launchEmbedded,
}) => {
  const host = await launchEmbedded()
  await page.goto(host.url)
  await openConfig(page)
  const banner = page.getByRole('status').filter({ hasText: 'This is the embedded demo registry' })
  await expect(banner).toContainText(`${host.dataDir}/config/overrides/rag-mcp.json`)
  await expect(page.getByRole('button', { name: 'Save…' })).toBeEnabled()
  await screenshots(page, 'config-demo-registry')
})

test('a layered registry names both files and edits the overrides', async ({
  page,
  launchEmbedded,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rc-layered-'))
  const defaults = join(dataDir, 'config', 'defaults', 'rag-mcp.json')
  const overrides = join(dataDir, 'config', 'overrides', 'rag-mcp.json')
  mkdirSync(join(dataDir, 'config', 'defaults'), { recursive: true })
  mkdirSync(join(dataDir, 'config', 'overrides'), { recursive: true })
  writeFileSync(
    defaults,
    registryText({ shared: httpServer('From defaults'), other: httpServer('Other') }),
  )
  writeFileSync(overrides, registryText({ shared: { description: 'Overridden' } }))
  const host = await launchEmbedded({ dataDir })
  await page.goto(host.url)
  const source = page.getByRole('button', { name: /^Registry: / })
  await expect(source).toContainText('+1 layer')
  await source.click()
  const popover = page.getByRole('dialog', { name: 'Registry source' })
  await expect(popover).toContainText('Layered registry')
  await expect(popover.getByRole('listitem').nth(0)).toContainText(defaults)
  await expect(popover.getByRole('listitem').nth(1)).toContainText(`${overrides}saves go here`)
  await screenshots(page, 'shell-layered-registry')
  await page.keyboard.press('Escape')

  await openConfig(page)
  await expect(page.getByRole('toolbar', { name: 'Config file' })).toContainText(
    'overrides/rag-mcp.json',
  )
  await expect(page.getByText('You are editing the overrides file')).toContainText(defaults)
  await expect(editor(page)).toContainText('"Overridden"')
  // A partial entry is complete once merged: main's check, not the local one, decides.
  await expect(page.getByRole('region', { name: 'Problems' })).toContainText('No problems')
})

test('Reload now says what it found', async ({ page, launch }) => {
  const { host } = await launch({ alpha: httpServer('Alpha') })
  await page.goto(host.url)
  await openConfig(page)
  await page.getByRole('button', { name: 'Reload now' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Reloaded: nothing changed.' }),
  ).toBeVisible()
})
