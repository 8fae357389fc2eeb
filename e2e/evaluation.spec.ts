import type { Page } from '@playwright/test'
import { EVAL_DEMO_ENV, startEvalDemo, type EvalDemo } from '../src/test/eval-demo'
import { expect, invoke, screenshots, test } from './console'
import { dataDirWithDemoSet, runGoldenSet, saveDemoUsers, slowServer } from './demo'

/**
 * Retrieval evaluation through the browser host, on the embedded registry's five demo servers
 * (started on free ports; their links keep the embedded document host, so the shipped demo
 * golden set's document keys match).
 */

let demo: EvalDemo | undefined
test.beforeAll(async () => {
  demo = await startEvalDemo()
})
test.afterAll(async () => {
  await demo?.stop()
})

const evaluation = (page: Page) => page.getByRole('main', { name: 'Evaluation' })
const merged = (page: Page) => page.getByRole('listbox', { name: 'Merged hits' })

/**
 * Opens the console on the demo servers with the demo users' profiles (some demo queries run
 * as one of them), viewing as Carol, who sees every server.
 */
async function open(
  page: Page,
  launch: Parameters<Parameters<typeof test>[2]>[0]['launch'],
  panel: 'Search' | 'Evaluation',
  env: NodeJS.ProcessEnv = {},
): Promise<void> {
  const { host } = await launch(demo!.registry, { env: { ...EVAL_DEMO_ENV, ...env } })
  await page.goto(host.url)
  await saveDemoUsers(page)
  await invoke(page, 'profiles:activate', { id: 'carol' })
  await page.getByRole('button', { name: 'Dismiss notification' }).click()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: panel }).click()
}

test('hits judged in Search build a golden set the Evaluation panel shows', async ({
  page,
  launch,
}) => {
  await open(page, launch, 'Search')
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
  await inspector.getByRole('radio', { name: 'relevant', exact: true }).click()
  await expect(inspector.getByRole('radio', { name: 'relevant', exact: true })).toBeChecked()
  // Arrow keys move the grade, as in any radio group: relevant → highly relevant → perfect.
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect(inspector.getByRole('radio', { name: 'perfect' })).toBeChecked()
  await expect(inspector.getByRole('radio', { name: 'perfect' })).toBeFocused()
  await expect(first.getByRole('radio', { name: 'perfect' })).toBeChecked()

  // …the second with the keyboard on the list.
  await merged(page).focus()
  await page.keyboard.press('ArrowDown')
  const second = merged(page).getByRole('option').nth(1)
  await expect(second).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('1')
  await expect(second.getByRole('radio', { name: 'relevant', exact: true })).toBeChecked()
  await screenshots(page, 'evaluation-judging')

  // A document several providers found is judged once: its grade shows in each column.
  await page.getByRole('tab', { name: /^By provider/ }).click()
  const judgedColumns = page
    .getByRole('region', { name: /^Hits from / })
    .filter({ has: page.getByRole('radio', { name: 'perfect', checked: true }) })
  expect(await judgedColumns.count()).toBeGreaterThan(1)
  await page.getByRole('tab', { name: /^Merged/ }).click()

  // Ctrl+8 reaches the panel, its heading focused.
  await page.keyboard.press('ControlOrMeta+8')
  const main = evaluation(page)
  await expect(main.getByRole('heading', { name: 'Evaluation', level: 1 })).toBeFocused()
  await main
    .getByRole('combobox', { name: 'Set', exact: true })
    .selectOption({ label: 'VPN judgments' })
  const editor = main.getByRole('region', { name: 'Set VPN judgments' })
  await expect(editor.getByRole('table', { name: 'Queries' })).toContainText('vpn setup')
  const judgments = editor.getByRole('table', { name: /^Judgments of / })
  await expect(judgments.getByRole('row')).toHaveCount(3)
  await expect(judgments.getByRole('combobox', { name: `Grade of ${title}` })).toHaveValue('3')
  await screenshots(page, 'evaluation-set-editor')
})

test('the demo set runs, shows its metrics and charts, and two runs compare', async ({
  page,
  launch,
}) => {
  test.setTimeout(180_000)
  await open(page, launch, 'Evaluation', { RAG_CONSOLE_HOME: dataDirWithDemoSet() })
  const main = evaluation(page)
  await expect(main.getByRole('combobox', { name: 'Set', exact: true })).toHaveValue('demo')
  await expect(main.getByRole('table', { name: 'Golden sets' })).toContainText('Demo corpus')
  await screenshots(page, 'evaluation-sets')

  await main.getByRole('tab', { name: /^Runs/ }).click()
  await runGoldenSet(page, 1)
  const table = main.getByRole('table', { name: 'Metrics' })
  const rrf = table.getByRole('row', { name: 'merged · RRF', exact: true })
  await expect(rrf).toBeVisible()
  // nDCG@10 of the merged list: neither nothing nor perfect on the demo corpus.
  const ndcg = Number(await rrf.getByRole('cell').nth(3).textContent())
  expect(ndcg).toBeGreaterThan(0)
  expect(ndcg).toBeLessThan(1)
  const bars = main.getByRole('figure', { name: 'nDCG@10 per list' })
  await expect(bars.getByRole('listitem').first()).toBeVisible()
  // One heatmap row per (query, profile) of the demo set, and the header.
  const heatmap = main.getByRole('table', { name: 'nDCG@10 per query and list' })
  await expect(heatmap.getByRole('row')).toHaveCount(42)
  await expect(heatmap.getByRole('row', { name: /^vpn setup/ })).toContainText(/0\.\d\d|1\.00/)
  await screenshots(page, 'evaluation-metrics')
  await heatmap.scrollIntoViewIfNeeded()
  await screenshots(page, 'evaluation-charts')
  // One profile's rows: Alice's own queries only.
  await main.getByRole('combobox', { name: 'Profile' }).selectOption('alice')
  await expect(heatmap.getByRole('row', { name: /^enterprise deals playbook/ })).toHaveCount(1)
  await main.getByRole('combobox', { name: 'Profile' }).selectOption('')

  // The second run leaves the vault out, as if it had broken: B loses its documents.
  await runGoldenSet(page, 2, 'documentVault')
  await main.getByRole('tab', { name: 'Compare' }).click()
  const comparison = main.getByRole('region', { name: 'Comparison' })
  await expect(comparison.getByRole('status')).toContainText('queries up')
  await expect(
    comparison
      .getByRole('table', { name: 'Metric changes' })
      .getByRole('row', { name: 'merged · RRF', exact: true }),
  ).toContainText(/p /)
  await screenshots(page, 'evaluation-compare')
})

test('the demo golden set is there on the first launch of the demo registry', async ({
  page,
  launchEmbedded,
}) => {
  const host = await launchEmbedded()
  await page.goto(host.url)
  // The shortcut works once the app is up.
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible()
  await page.keyboard.press('ControlOrMeta+8')
  const sets = evaluation(page).getByRole('table', { name: 'Golden sets' })
  await expect(sets.getByRole('row', { name: /Demo corpus/ })).toContainText('41')
  await expect(evaluation(page).getByRole('button', { name: 'Add the demo set' })).toBeHidden()
})

test('a set written in the editor runs with progress, and Cancel stops the run', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ slow: slowServer('slow', 5000) })
  await page.goto(host.url)
  // The shortcut works once the app is up.
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible()
  await page.keyboard.press('ControlOrMeta+8')
  const main = evaluation(page)
  await main.getByRole('button', { name: 'New set' }).click()
  await page.getByRole('dialog', { name: 'New golden set' }).getByLabel('Name').fill('Slow one')
  await page.keyboard.press('Enter')

  const editor = main.getByRole('region', { name: 'Set Slow one' })
  await editor.getByRole('button', { name: 'Add query' }).click()
  const query = editor.getByRole('group', { name: 'Query q1' })
  await query.getByLabel('Query', { exact: true }).fill('vpn setup')
  await query.getByLabel('Extra phrases (up to 4)').fill('remote access\nglobalprotect')
  await editor.getByRole('button', { name: 'Save set' }).click()
  await expect(editor.getByRole('button', { name: 'Save set' })).toBeDisabled()
  // Saved: the list of sets (read from the data folder) counts the query.
  const saved = main
    .getByRole('table', { name: 'Golden sets' })
    .getByRole('row', { name: /Slow one/ })
  await expect(saved.getByRole('cell').nth(1)).toHaveText('1')

  await main.getByRole('tab', { name: /^Runs/ }).click()
  const launcher = main.getByRole('form', { name: 'Run a set' })
  await launcher.getByRole('button', { name: 'Run Slow one' }).click()
  await expect(launcher.getByRole('progressbar', { name: 'Run progress' })).toBeVisible()
  await expect(launcher.getByRole('status')).toHaveText('0 of 1 queries')
  await screenshots(page, 'evaluation-run-progress')
  await launcher.getByRole('button', { name: 'Cancel run' }).click()
  const history = main.getByRole('table', { name: 'Run history' })
  await expect(history.getByRole('row').nth(1)).toContainText('cancelled')
  await expect(launcher.getByRole('button', { name: 'Run Slow one' })).toBeEnabled()
})
