import type { Page } from '@playwright/test'
import { expect, screenshots, test } from './console'
import { demoRegistry, openSearch, useDemoServers } from './demo'

/** Retrieval evaluation through the browser host, on the five demo servers. */

const demo = useDemoServers()

const merged = (page: Page) => page.getByRole('listbox', { name: 'Merged hits' })
const evaluation = (page: Page) => page.getByRole('main', { name: 'Evaluation' })

/** Runs the set shown with the launcher's defaults and waits until the run is done. */
async function runSet(page: Page, runs: number): Promise<void> {
  const main = evaluation(page)
  await main.getByRole('button', { name: /^Run / }).click()
  const history = main.getByRole('table', { name: 'Run history' })
  await expect(history.getByRole('row')).toHaveCount(runs + 1)
  await expect(history.getByRole('row').nth(1)).toContainText('done', { timeout: 60_000 })
}

test('hits judged in Search build a golden set the Evaluation panel shows', async ({
  page,
  launch,
}) => {
  const { host } = await launch(demoRegistry(demo()), { env: demo().env })
  await openSearch(page, host.url, true)
  await page.getByRole('button', { name: 'Dismiss notification' }).click()

  await page.getByRole('combobox', { name: 'Judge into' }).selectOption({ label: 'New set…' })
  const dialog = page.getByRole('dialog', { name: 'New golden set' })
  await dialog.getByLabel('Name').fill('VPN judgments')
  await dialog.getByRole('button', { name: 'Create set' }).click()
  await expect(page.getByRole('combobox', { name: 'Judge into' })).toHaveValue('vpn-judgments')

  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  const first = merged(page).getByRole('option').first()
  await expect(first).toBeVisible()

  // The first hit from the inspector's control…
  await first.click()
  const inspector = page.getByRole('complementary', { name: 'Hit inspector' })
  const title = (await inspector.getByRole('heading', { level: 2 }).textContent())!
  await inspector.getByRole('radio', { name: 'highly relevant' }).click()
  await expect(inspector.getByRole('radio', { name: 'highly relevant' })).toBeChecked()
  await expect(first.getByRole('radio', { name: 'highly relevant' })).toBeChecked()

  // …the second with the keyboard on the list.
  await merged(page).focus()
  await page.keyboard.press('ArrowDown')
  const second = merged(page).getByRole('option').nth(1)
  await expect(second).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('1')
  await expect(second.getByRole('radio', { name: 'somewhat relevant' })).toBeChecked()

  // A document found by several providers carries its grade into their columns too.
  await page.getByRole('tab', { name: /^By provider/ }).click()
  await expect(
    page.getByRole('radio', { name: 'highly relevant', checked: true }).first(),
  ).toBeVisible()
  await page.getByRole('tab', { name: /^Merged/ }).click()
  await screenshots(page, 'evaluation-judging')

  // Ctrl+8 reaches the panel, its heading focused.
  await page.keyboard.press('ControlOrMeta+8')
  await expect(
    evaluation(page).getByRole('heading', { name: 'Evaluation', level: 1 }),
  ).toBeFocused()
  await evaluation(page)
    .getByRole('combobox', { name: 'Set' })
    .selectOption({ label: 'VPN judgments' })
  const editor = evaluation(page).getByRole('region', { name: 'Set VPN judgments' })
  await expect(editor.getByRole('table', { name: 'Queries' })).toContainText('vpn setup')
  const judgments = editor.getByRole('table', { name: /^Judgments of / })
  await expect(judgments.getByRole('row')).toHaveCount(3)
  await expect(judgments).toContainText(title)
  await expect(judgments.getByRole('combobox', { name: `Grade of ${title}` })).toHaveValue('3')
  await screenshots(page, 'evaluation-set-editor')
})

test('the demo set runs, shows its metrics and charts, and two runs compare', async ({
  page,
  launch,
}) => {
  const { host } = await launch(demoRegistry(demo()), { env: demo().env })
  await openSearch(page, host.url, true)
  await page.getByRole('button', { name: 'Dismiss notification' }).click()
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Evaluation' })
    .click()
  const main = evaluation(page)
  // The demo golden set is there on first launch.
  await expect(main.getByRole('table', { name: 'Golden sets' })).toContainText('demo')
  await main.getByRole('combobox', { name: 'Set' }).selectOption('demo')
  await screenshots(page, 'evaluation-sets')

  await main.getByRole('tab', { name: /^Runs/ }).click()
  await runSet(page, 1)
  const table = main.getByRole('table', { name: 'Metrics' })
  const rrf = table.getByRole('row', { name: 'merged · RRF' })
  await expect(rrf).toBeVisible()
  // nDCG@10 of the merged list: neither nothing nor perfect on the demo corpus.
  const ndcg = Number(await rrf.getByRole('cell').nth(3).textContent())
  expect(ndcg).toBeGreaterThan(0)
  expect(ndcg).toBeLessThan(1)
  await expect(main.getByRole('figure', { name: 'nDCG@10 per list' })).toBeVisible()
  await expect(
    main.getByRole('table', { name: 'nDCG@10 per query and list' }).getByRole('row'),
  ).toHaveCount(
    await main.getByRole('table', { name: 'nDCG@10 per query and list' }).getByRole('row').count(),
  )
  await screenshots(page, 'evaluation-metrics')

  await runSet(page, 2)
  await main.getByRole('tab', { name: 'Compare' }).click()
  const comparison = main.getByRole('region', { name: 'Comparison' })
  await expect(comparison.getByRole('status')).toContainText('queries up')
  await expect(
    comparison
      .getByRole('table', { name: 'Metric changes' })
      .getByRole('row', { name: 'merged · RRF' }),
  ).toContainText(/p /)
  await screenshots(page, 'evaluation-compare')
})
