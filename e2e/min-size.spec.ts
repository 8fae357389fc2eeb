import type { Page } from '@playwright/test'
import { expectColumnsFit } from './columns'
import { expect, screenshots, test } from './console'
import {
  openDemoWithErrors,
  runGoldenSet,
  saveDemoUsers,
  searchVpnSetup,
  useDemoServers,
} from './demo'

/**
 * The window's minimum size (1024×700) with every panel full of real data: nothing a user needs
 * is cut, every column is at least as wide as its label.
 */

const demo = useDemoServers()

test.use({ viewport: { width: 1024, height: 700 } })

/** Saves the screenshots `<name>-light/dark.png` and checks every column and label there. */
async function check(page: Page, name: string, where: string): Promise<void> {
  await screenshots(page, name)
  await expectColumnsFit(page, where)
}

const nav = (page: Page, panel: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: panel }).click()

test('every panel is usable at the minimum window size', async ({ page, launch }) => {
  await openDemoWithErrors(page, launch, demo())
  // A long label must not squeeze its icon in the narrow navigation.
  const icons = page.getByRole('navigation', { name: 'Main' }).locator('.ui-icon')
  for (const width of await icons.evaluateAll((all) => all.map((icon) => icon.clientWidth))) {
    expect(width, 'every navigation icon keeps its size').toBe(15)
  }
  await searchVpnSetup(page)
  await page.getByRole('listbox', { name: 'Merged hits' }).getByRole('option').first().click()
  await expect(page.getByRole('complementary', { name: 'Hit inspector' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible()
  await check(page, 'min-size-search-inspector', 'Search with the inspector open')

  await page.getByRole('tab', { name: /^By provider/ }).click()
  await expect(page.getByRole('region', { name: 'Hits from knowledgeSearch' })).toBeVisible()
  await check(page, 'min-size-search-providers', 'Search by provider')

  await page.getByRole('tab', { name: 'Answers' }).click()
  await page.getByRole('button', { name: 'Compare answers' }).click()
  await expect(page.getByRole('article', { name: 'Answer from engineeringWiki' })).toBeVisible()
  await check(page, 'min-size-answers', 'Answers')

  await nav(page, 'Access')
  const form = page.getByRole('form', { name: 'Check access' })
  await form.getByLabel('Server').selectOption('knowledgeSearch')
  await form.getByLabel('Segment id').fill('hb-pto-policy#0')
  await form.getByLabel('Segment id').press('Enter')
  await expect(page.getByRole('region', { name: 'Verdict' })).toContainText('carol@example.com')
  await check(page, 'min-size-access', 'Access')

  await nav(page, 'Servers')
  await expect(page.getByRole('region', { name: 'knowledgeSearch' })).toContainText('ready')
  await check(page, 'min-size-servers', 'Servers')

  await nav(page, 'Health')
  await expect(page.getByRole('table', { name: 'Health of every server' })).toBeVisible()
  await check(page, 'min-size-health', 'Health')

  await nav(page, 'Config')
  await expect(page.getByRole('textbox', { name: 'rag-mcp.json' })).toContainText('companyDocs')
  await check(page, 'min-size-config', 'Config')

  await nav(page, 'Audit')
  await expect(
    page.getByRole('row', { name: 'search on knowledgeSearch by carol@example.com: ok' }),
  ).toBeVisible()
  await expect(page.getByRole('row', { name: /on lockedOut .*: error/ }).first()).toContainText(
    'unauthorized',
  )
  await check(page, 'min-size-audit', 'Audit')

  // Evaluation: the demo set, a run's metrics and charts, two runs compared.
  await saveDemoUsers(page)
  await nav(page, 'Evaluation')
  const evaluation = page.getByRole('main', { name: 'Evaluation' })
  await expect(evaluation.getByRole('table', { name: 'Queries' })).toContainText('vpn setup')
  await check(page, 'min-size-evaluation-sets', 'Evaluation, golden sets')
  await evaluation.getByRole('tab', { name: /^Runs/ }).click()
  await runGoldenSet(page, 1)
  await expect(evaluation.getByRole('table', { name: 'Metrics' })).toBeVisible()
  await check(page, 'min-size-evaluation-runs', 'Evaluation, runs')
  await runGoldenSet(page, 2, 'documentVault')
  await evaluation.getByRole('tab', { name: 'Compare' }).click()
  await expect(evaluation.getByRole('table', { name: 'Metric changes' })).toBeVisible()
  await check(page, 'min-size-evaluation-compare', 'Evaluation, compare')
})
