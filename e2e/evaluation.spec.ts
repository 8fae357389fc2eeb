import type { Page } from '@playwright/test'
import { EVAL_DEMO_ENV, startEvalDemo, type EvalDemo } from '#test/support/demo/eval-demo'
import { expectColumnsFit } from './columns'
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
  await open(page, launch, 'Evaluation', { RAG_CONSOLE_HOME: dataDirWithDemoSet() })
  const main = evaluation(page)
  await expect(main.getByRole('combobox', { name: 'Set', exact: true })).toHaveValue('demo')
  await expect(main.getByRole('table', { name: 'Golden sets' })).toContainText('Demo corpus')
  // The set's editor has loaded (the screenshot is of the set, not of "Loading the set…").
  const editor = main.getByRole('region', { name: 'Set Demo corpus' })
  await expect(editor.getByRole('table', { name: 'Queries' })).toContainText('vpn setup')
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

/** Chooses `files` in the dialog's file picker labelled `label` (as a person would). */
async function chooseFile(
  page: Page,
  label: string,
  file: { name: string; text: string },
): Promise<void> {
  const chooser = page.waitForEvent('filechooser')
  await page
    .getByRole('dialog', { name: 'New golden set' })
    .getByRole('button', { name: label })
    .click()
  await (
    await chooser
  ).setFiles({ name: file.name, mimeType: 'text/plain', buffer: Buffer.from(file.text) })
}

test('golden sets are imported from TREC qrels with topics and from a golden set file', async ({
  page,
  launch,
}) => {
  const { host } = await launch({})
  // The page's clock, to see the notice of skipped lines go away without waiting for it.
  await page.clock.install()
  await page.goto(host.url)
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Evaluation' })
    .click()
  const dialog = page.getByRole('dialog', { name: 'New golden set' })

  await evaluation(page).getByRole('button', { name: 'New set' }).click()
  await dialog.getByRole('combobox', { name: 'Start from' }).selectOption('qrels')
  await chooseFile(page, 'Qrels file', {
    name: 'support-qrels.txt',
    text: 'q1 0 uri:https://kb.example/vpn 2\nq1 0 uri:https://kb.example/sso 1\nq2 0 id:doc-7 3\nnot a qrels line\n',
  })
  await chooseFile(page, 'Topics file (optional)', {
    name: 'topics.txt',
    text: 'q1\tvpn setup\nq2\tpassword reset\n',
  })
  // Named after the file unless a name was typed.
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('support-qrels')
  await screenshots(page, 'evaluation-import-qrels')
  await dialog.getByRole('button', { name: 'Import set' }).click()
  await expect(dialog).toBeHidden()
  const sets = evaluation(page).getByRole('table', { name: 'Golden sets' })
  await expect(sets.getByRole('row', { name: /support-qrels/ })).toContainText('23')
  const skipped = page
    .getByRole('region', { name: 'Notifications' })
    .getByText('Line 4 of support-qrels.txt could not be read and was skipped.')
  await expect(skipped).toBeVisible()
  await page.mouse.move(0, 0)
  await page.clock.fastForward(21_000)
  await expect(skipped).toBeHidden()
  await expect(evaluation(page).getByRole('textbox', { name: 'Query' }).first()).toHaveValue(
    'vpn setup',
  )

  // A golden set file: a wrong field is named, then a right one imports under the name typed.
  await evaluation(page).getByRole('button', { name: 'New set' }).click()
  await dialog.getByRole('combobox', { name: 'Start from' }).selectOption('json')
  await chooseFile(page, 'Golden set file', {
    name: 'broken.json',
    text: JSON.stringify({ version: 1, id: 'broken', name: 'Broken', queries: 'none' }),
  })
  await dialog.getByRole('button', { name: 'Import set' }).click()
  await expect(dialog.getByText('Cannot import broken.json')).toBeVisible()
  await expect(dialog.getByText(/^queries: .*expected array/)).toBeVisible()
  await screenshots(page, 'evaluation-import-error')
  await chooseFile(page, 'Golden set file', {
    name: 'handbook.json',
    text: JSON.stringify({
      version: 1,
      id: 'handbook',
      name: 'From elsewhere',
      queries: [
        {
          id: 'pto',
          query: 'how do I request paid time off',
          judgments: [{ docKey: 'id:doc-pto', grade: 3 }],
        },
      ],
    }),
  })
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Handbook questions')
  await dialog.getByRole('button', { name: 'Import set' }).click()
  await expect(dialog).toBeHidden()
  await expect(sets.getByRole('row', { name: /Handbook questions/ })).toContainText('11')
})

test('a TREC run from elsewhere is imported into a set and measured like a run of its own', async ({
  page,
  launch,
}) => {
  const { host } = await launch({})
  await page.goto(host.url)
  await invoke(page, 'eval:set:save', {
    version: 1,
    id: 'kb',
    name: 'KB questions',
    queries: [
      { id: 'q1', query: 'vpn setup', judgments: [{ docKey: 'id:vpn', grade: 3 }] },
      { id: 'q2', query: 'password reset', judgments: [{ docKey: 'id:pw', grade: 2 }] },
    ],
  })
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Evaluation' })
    .click()
  await evaluation(page).getByRole('tab', { name: /Runs/ }).click()
  const chooser = page.waitForEvent('filechooser')
  await evaluation(page).getByRole('button', { name: 'Import TREC run…' }).click()
  await (
    await chooser
  ).setFiles({
    name: 'bm25.run',
    mimeType: 'text/plain',
    // q1 finds its document first, q2 second; the last line is not TREC.
    buffer: Buffer.from(
      'q1 Q0 id:vpn 1 9.1 bm25\nq2 Q0 id:other 1 8.0 bm25\nq2 Q0 id:pw 2 7.5 bm25\nrubbish\n',
    ),
  })
  const history = evaluation(page).getByRole('table', { name: 'Run history' })
  await expect(history.getByText('imported')).toBeVisible()
  await expect(
    page.getByText('Line 4 of bm25.run could not be read and was skipped.'),
  ).toBeVisible()
  // MRR of the imported list: (1 + 1/2) / 2.
  await expect(
    evaluation(page)
      .getByRole('table', { name: /metric/i })
      .first(),
  ).toContainText('0.750')
  // No call was made: no latency columns.
  await expect(evaluation(page).getByRole('columnheader', { name: 'p50' })).toBeHidden()
  await screenshots(page, 'evaluation-import-run')
})

test('the launcher names the servers left out and says who runs what; it can run as the ticked only', async ({
  page,
  launch,
}) => {
  test.setTimeout(180_000)
  await open(page, launch, 'Evaluation', { RAG_CONSOLE_HOME: dataDirWithDemoSet() })
  const main = evaluation(page)
  await main.getByRole('tab', { name: /^Runs/ }).click()
  const launcher = main.getByRole('form', { name: 'Run a set' })
  // Carol's VTEX categories all start off: the catalog is shown, not silently dropped.
  const catalog = launcher.getByRole('checkbox', { name: 'productCatalog' })
  await expect(catalog).toBeDisabled()
  await expect(catalog).toHaveAccessibleDescription('(no source selected)')

  await launcher.getByRole('checkbox', { name: 'Alice Lee (sales)', exact: true }).check()
  await launcher
    .getByRole('checkbox', { name: 'Carol Mendes (legal, admin)', exact: true })
    .uncheck()
  const plan = launcher.getByRole('note', { name: 'Who the queries run as' })
  await expect(plan).toContainText(
    '35 queries run as Alice Lee (sales). 6 queries are pinned to a profile and always run as it: Alice Lee (sales) 1, Bob Martins (engineering) 2, Carol Mendes (legal, admin) 2, Dan Novak (contractor) 1.',
  )
  const onlyTicked = launcher.getByRole('checkbox', { name: /^Only as the ticked profiles/ })
  await expect(onlyTicked).toHaveAccessibleName(
    'Only as the ticked profiles (leave out 5 queries pinned to Bob Martins (engineering), Carol Mendes (legal, admin), Dan Novak (contractor))',
  )
  await onlyTicked.check()
  await screenshots(page, 'evaluation-launcher-plan')

  await runGoldenSet(page, 1)
  const heatmap = main.getByRole('table', { name: 'nDCG@10 per query and list' })
  // 35 queries for every profile and Alice's own one, as Alice only; and the header.
  await expect(heatmap.getByRole('row')).toHaveCount(37)
  await expect(main.getByRole('combobox', { name: 'Profile' })).toBeHidden()
})

test('a heatmap cell says why it failed, and a server hidden from the profile is not its failure', async ({
  page,
  launch,
}) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 1440, height: 900 })
  await open(page, launch, 'Evaluation', { RAG_CONSOLE_HOME: dataDirWithDemoSet() })
  const main = evaluation(page)
  await main.getByRole('tab', { name: /^Runs/ }).click()
  // Leaving a server out sends the servers by name, for Dan too, who may not see companyDocs.
  await runGoldenSet(page, 1, 'documentVault')
  const heatmap = main.getByRole('table', { name: 'nDCG@10 per query and list' })
  // Column headers wrap between words only ("knowledge|Search", never "knowledgeSea|rch").
  await heatmap.getByRole('columnheader').first().scrollIntoViewIfNeeded()
  await screenshots(page, 'evaluation-heatmap-1440')
  await expectColumnsFit(page, 'Evaluation at 1440 px')
  const dans = heatmap.getByRole('row').filter({ has: page.getByRole('cell', { name: / · dan$/ }) })
  await expect(dans).toHaveCount(1)
  const whyName = /^hidden: companyDocs for “.* · dan”, why$/
  const why = dans.getByRole('button', { name: whyName })
  await expect(why).toBeVisible()
  const cell = dans.getByRole('cell').filter({ has: page.getByRole('button', { name: whyName }) })
  await expect(cell).toHaveAttribute(
    'title',
    /server companyDocs is hidden from profile "Dan Novak \(contractor\)"/,
  )
  await why.focus()
  await page.keyboard.press('Enter')
  const panel = page.getByRole('dialog', { name: /^Why companyDocs shows hidden/ })
  await expect(panel).toContainText('Not counted as its failure')
  await expect(panel).toContainText('hidden from profile "Dan Novak (contractor)"')
  await expect(panel).toBeInViewport({ ratio: 1 })
  await screenshots(page, 'evaluation-heatmap-why')
  await page.keyboard.press('Escape')
  await expect(panel).toBeHidden()
  // Dan's query is no failure of companyDocs: every call it was asked answered.
  const companyDocs = main
    .getByRole('table', { name: 'Metrics' })
    .getByRole('row', { name: 'companyDocs', exact: true })
  const headers = await main
    .getByRole('table', { name: 'Metrics' })
    .getByRole('columnheader')
    .allTextContents()
  // Cells follow the row header, so a column's cell index is one less than its header's.
  const failures = headers.findIndex((h) => h.startsWith('Failures')) - 1
  expect(failures).toBeGreaterThan(0)
  await expect(companyDocs.getByRole('cell').nth(failures)).toHaveText('0%')
})
