import type { Page } from '@playwright/test'
import { expect, screenshots, test, type Launch } from './console'
import { startScaleDemo, type ScaleDemo } from './scale'

/** The Servers panel, the source picker and Health with 200 registered servers. */
let demo: ScaleDemo | undefined
test.beforeAll(async () => {
  demo = await startScaleDemo()
})
test.afterAll(async () => {
  await demo?.stop()
})
const scale = (): ScaleDemo => {
  if (!demo) throw new Error('the demo servers are not running')
  return demo
}

const progress = (page: Page) => page.getByRole('main').getByRole('status').first()
const shownCount = (page: Page) => page.getByLabel('Servers by status')
/** Every server card in the page (only those in view and a few around are rendered). */
const cards = (page: Page) => page.getByRole('main').getByRole('region')

/** A host on the 200-server registry, every server tried once, then `panel` if named. */
async function openScale(page: Page, launch: Launch, panel?: string): Promise<void> {
  const { host } = await launch(scale().registry, { env: scale().env })
  await page.goto(host.url)
  await expect(progress(page)).toHaveText('200 of 200 connected or tried', { timeout: 90_000 })
  if (!panel) return
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: panel }).click()
}

test('the Servers panel is usable at once and says how far connecting 200 servers got', async ({
  page,
  launch,
}) => {
  const { host } = await launch(scale().registry, { env: scale().env })
  await page.goto(host.url)
  const filter = page.getByRole('searchbox', { name: 'Filter servers' })
  await filter.focus()
  await expect(filter).toBeFocused()
  await expect(cards(page).first()).toBeVisible()
  await expect(progress(page)).toHaveText(
    /^(Connecting \d+ of 200…|200 of 200 connected or tried)$/,
  )
  await expect(progress(page)).toHaveText('200 of 200 connected or tried', { timeout: 90_000 })
  // Virtualized: a screenful of cards is in the page, not 200.
  expect(await cards(page).count()).toBeLessThan(30)
})

test('filter, "only needing attention" and grouping narrow 200 servers', async ({
  page,
  launch,
}) => {
  await openScale(page, launch)
  await expect(shownCount(page)).toContainText('200 servers')
  await screenshots(page, 'scale-servers')

  const filter = page.getByRole('searchbox', { name: 'Filter servers' })
  await filter.fill('legal')
  await expect(shownCount(page)).toContainText('40 of 200 servers shown')
  await filter.fill('ragbox legal')
  await expect(cards(page).first()).toContainText('ragbox')
  await filter.fill('')

  await page.getByRole('switch', { name: 'Only needing attention' }).click()
  await expect(shownCount(page)).toContainText(`${scale().broken.length} of 200 servers shown`)
  await expect(cards(page).first()).toHaveAccessibleName('offline-0')
  await expect(cards(page).filter({ hasNotText: 'down' })).toHaveCount(0)
  await expect(page.getByRole('main').getByRole('region', { name: /^(?!offline-)/ })).toHaveCount(0)
  await page.getByRole('switch', { name: 'Only needing attention' }).click()

  await page.getByLabel('Group').selectOption('groups')
  const group = (name: string) => page.getByRole('button', { name: new RegExp(`^${name}, users`) })
  await expect(group('engineering')).toContainText('40 servers')
  await expect(group('engineering')).toContainText('2 need attention')
  // Collapsing the first groups brings the next headers into view.
  for (const name of ['engineering', 'finance']) {
    await group(name).click()
    await expect(group(name)).toHaveAttribute('aria-expanded', 'false')
  }
  await expect(group('legal')).toContainText('40 servers')
  await screenshots(page, 'scale-servers-grouped')

  await page.getByLabel('Group').selectOption('status')
  await expect(page.getByRole('button', { name: /^down/ })).toContainText('10 servers')

  await page.setViewportSize({ width: 1024, height: 700 })
  await screenshots(page, 'scale-servers-1024')
})

test('the source picker filters, groups and includes or leaves out a whole group', async ({
  page,
  launch,
}) => {
  await openScale(page, launch, 'Search')
  const trigger = page.getByRole('button', { name: /^Sources: \d+ servers/ })
  await expect(trigger).toBeVisible()
  const before = Number(/Sources: (\d+) servers/.exec((await trigger.textContent()) ?? '')?.[1])
  // Closed, the picker keeps none of its 200 rows in the page (each message from main that
  // re-rendered the panel used to re-render them too).
  const rows = page
    .getByRole('dialog', { name: 'Sources of this search', includeHidden: true })
    .getByRole('checkbox', { includeHidden: true })
  await expect(rows).toHaveCount(0)
  await trigger.click()
  const picker = page.getByRole('dialog', { name: 'Sources of this search' })
  // 200 servers: grouped by their groups from the start.
  const legal = picker.getByRole('region', { name: 'Servers in legal, users' })
  await expect(legal).toContainText('of 40 servers in this search')
  await picker.getByRole('button', { name: 'Leave out every server in legal, users' }).click()
  await expect(legal).toContainText('0 of 40 servers in this search')
  await expect(page.getByRole('button', { name: /^Sources: / })).toContainText('left out')
  await picker.getByRole('searchbox', { name: 'Filter servers' }).fill('vtex-3')
  await expect(picker.getByRole('checkbox')).toHaveCount(
    // vtex-3, vtex-31, vtex-35, … every id holding the text.
    Object.keys(scale().registry).filter((id) => id.includes('vtex-3')).length,
  )
  await screenshots(page, 'scale-search-sources')
  await picker.getByRole('searchbox', { name: 'Filter servers' }).fill('')
  await picker.getByRole('button', { name: 'Include every server in legal, users' }).click()
  await expect(page.getByRole('button', { name: /^Sources: / })).not.toContainText('left out')
  expect(before).toBeGreaterThan(150)
  await page.keyboard.press('Escape')
  await expect(picker).toBeHidden()
  await expect(rows).toHaveCount(0)
})

test('Health lists 200 servers, filters to those needing attention, and charts one at a time', async ({
  page,
  launch,
}) => {
  await openScale(page, launch, 'Health')
  const table = page.getByRole('table', { name: 'Health of every server' })
  await expect(table.getByRole('row')).toHaveCount(200 + 2)
  await expect(page.getByRole('note')).toContainText('Charts are drawn for one server at a time')
  await expect(page.getByRole('region', { name: /^Health of / })).toHaveCount(0)
  await page.getByRole('switch', { name: 'Only needing attention' }).click()
  await expect(table.getByRole('row')).toHaveCount(scale().broken.length + 2)
  await page.getByRole('searchbox', { name: 'Filter servers' }).fill('offline-1')
  await expect(page.getByRole('region', { name: 'Health of offline-1' })).toBeVisible()
  await screenshots(page, 'scale-health')
})
