import type { Page } from '@playwright/test'
import { expect, screenshots, test } from './console'
import {
  actAsCarol,
  brokenServer,
  demoRegistry,
  slowServer,
  startDemoServers,
  type DemoServers,
} from './demo'

const DEMO_SERVERS = [
  'companyDocs',
  'documentVault',
  'engineeringWiki',
  'knowledgeSearch',
  'productCatalog',
]

let demo: DemoServers

test.beforeAll(async () => {
  demo = await startDemoServers()
})

test.afterAll(async () => {
  await demo?.stop()
})

async function openSearch(page: Page, url: string, carol = false): Promise<void> {
  await page.goto(url)
  if (carol) await actAsCarol(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Search' }).click()
}

const waterfall = (page: Page) => page.getByRole('table', { name: 'Latency by server' })

test('a search across every demo server shows each provider, the waterfall and the merged list', async ({
  page,
  launch,
}) => {
  const { host } = await launch(demoRegistry(demo), { env: demo.env })
  await openSearch(page, host.url, true)
  await expect(page.getByRole('button', { name: /^Sources: 5 servers/ })).toBeVisible()

  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')

  for (const server of DEMO_SERVERS) {
    await expect(waterfall(page).getByRole('row', { name: server })).toContainText(/ok|\d+ ms/)
  }
  const merged = page.getByRole('listbox', { name: 'Merged hits' })
  await expect(merged.getByRole('option').first()).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: /merged hits? in/ })).toBeVisible()
  await screenshots(page, 'search-merged')

  await page.getByRole('tab', { name: /^By provider/ }).click()
  for (const server of DEMO_SERVERS) {
    await expect(page.getByRole('region', { name: `Hits from ${server}` })).toBeVisible()
  }
  // rag-search and rag-tools-v1 link the same internal documents: overlap shows.
  await expect(page.getByRole('region', { name: 'Hits from knowledgeSearch' })).toContainText(
    /[1-9]\d* shared/,
  )
  await screenshots(page, 'search-providers')
})
