import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import {
  expect,
  httpServer,
  invoke,
  LATENCY,
  openConfig,
  PANELS,
  registryText,
  replaceEditorText,
  test,
  type Entry,
  type Launch,
} from './console'
import {
  dataDirWithDemoSet,
  demoRegistry,
  everything,
  openDemoWithErrors,
  openSearch,
  runGoldenSet,
  saveDemoUsers,
  searchVpnSetup,
  slowServer,
  useDemoServers,
} from './demo'
import { root } from './host'

/**
 * WCAG 2.1 A and AA, audited by axe-core (`expectNoAxeViolations`, light and dark) on every
 * panel, every dialog and popover, and the main states: empty, loading, error, results. One page
 * load covers many states of an area.
 */

const demo = useDemoServers()

// Every test runs on a host of its own: the two workers share them (each starts its own demo
// servers for them).
test.describe.configure({ mode: 'parallel' })

const nav = (page: Page, panel: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: panel }).click()

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name })

/** Audits the open dialog `name` (the page under it is audited on its own), then closes it. */
async function auditDialog(page: Page, name: string | RegExp, context: string): Promise<void> {
  await expect(dialog(page, name)).toBeVisible()
  await expectNoAxeViolations(page, context, { include: 'dialog[open]' })
  await page.keyboard.press('Escape')
  await expect(dialog(page, name)).toBeHidden()
}

/** The demo registry and a locked-out server, the page on Search as Carol. */
const openDemo = (page: Page, launch: Launch) => openDemoWithErrors(page, launch, demo())

test('Search and Access, with results and errors', async ({ page, launch }) => {
  test.setTimeout(180_000)
  await openDemo(page, launch)
  await expectNoAxeViolations(page, 'Search, before a query')
  await page.getByRole('button', { name: /^Sources: \d servers/ }).click()
  await expect(dialog(page, 'Sources of this search')).toBeVisible()
  await expectNoAxeViolations(page, 'Search, the sources popover')
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: /^Registry: / }).click()
  await expect(dialog(page, 'Registry source')).toBeVisible()
  await expectNoAxeViolations(page, 'the registry source popover')
  await page.keyboard.press('Escape')

  await searchVpnSetup(page)
  await page.getByRole('listbox', { name: 'Merged hits' }).getByRole('option').first().click()
  await expect(page.getByRole('complementary', { name: 'Hit inspector' })).toBeVisible()
  await expectNoAxeViolations(page, 'Search, results and the hit inspector')

  await page.getByRole('tab', { name: /^By provider/ }).click()
  await expect(page.getByRole('region', { name: 'Hits from knowledgeSearch' })).toBeVisible()
  await expectNoAxeViolations(page, 'Search, by provider')

  await page.getByRole('tab', { name: 'Answers' }).click()
  await page.getByRole('button', { name: 'Compare answers' }).click()
  await expect(page.getByRole('article', { name: 'Answer from engineeringWiki' })).toBeVisible()
  await expectNoAxeViolations(page, 'Search, answers')

  await nav(page, 'Access')
  await expectNoAxeViolations(page, 'Access, before a check')
  const form = page.getByRole('form', { name: 'Check access' })
  await form.getByLabel('Server').selectOption('knowledgeSearch')
  await form.getByLabel('Segment id').fill('hb-pto-policy#0')
  await form.getByLabel('Segment id').press('Enter')
  await expect(page.getByRole('region', { name: 'Verdict' })).toContainText('carol@example.com')
  await expectNoAxeViolations(page, 'Access, a verdict')
  await page.getByRole('tab', { name: /^Check all/ }).click()
  const docs = demo().urls.docHost
  const box = page.getByLabel('Links to check, one per line')
  await box.fill(
    [
      `${docs}/docs/hb-pto-policy`,
      `${docs}/portal/hb-health-benefits-request`,
      `${docs}/error/en-observability-runbook`,
      'http://127.0.0.1:9/wiki/it-email-troubleshoot',
    ].join('\n'),
  )
  await box.press('ControlOrMeta+Enter')
  const batch = page.getByRole('region', { name: /^Batch: Links pasted at / })
  await expect(batch.getByRole('table', { name: 'Verdicts' }).getByRole('row')).toHaveCount(5)
  await expectNoAxeViolations(page, 'Access, check all')
})

test('Servers, Health, Config and Audit, with errors, and their dialogs', async ({
  page,
  launch,
}) => {
  test.setTimeout(180_000)
  await openDemo(page, launch)
  await searchVpnSetup(page)

  await nav(page, 'Servers')
  const card = (server: string) => page.getByRole('region', { name: server, exact: true })
  await expect(card('knowledgeSearch')).toContainText('ready')
  await expectNoAxeViolations(page, 'Servers')
  await card('knowledgeSearch').getByRole('button', { name: 'Tools of knowledgeSearch' }).click()
  await auditDialog(page, 'Tools of knowledgeSearch', 'Servers, the tools dialog')
  await card('companyDocs').getByRole('button', { name: 'Log of companyDocs' }).click()
  await auditDialog(page, 'Log of companyDocs', 'Servers, the log dialog')
  await card('companyDocs').getByRole('button', { name: 'Doctor companyDocs' }).click()
  await expect(dialog(page, 'Doctor: companyDocs')).toContainText('keeps its contract')
  await auditDialog(page, 'Doctor: companyDocs', 'Servers, the Doctor report')
  await page.getByRole('button', { name: 'Manage profiles' }).click()
  await auditDialog(page, 'Acting-user profiles', 'the profiles dialog')

  await nav(page, 'Health')
  await expect(page.getByRole('table', { name: 'Health of every server' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Health of knowledgeSearch' })).toBeVisible()
  await expectNoAxeViolations(page, 'Health')

  await nav(page, 'Config')
  await expect(page.getByRole('textbox', { name: 'rag-mcp.json' })).toContainText('companyDocs')
  await expectNoAxeViolations(page, 'Config, rag-mcp.json')
  await openConfig(page, 'Reload history')
  await expectNoAxeViolations(page, 'Config, reload history')

  await nav(page, 'Audit')
  await expect(page.getByRole('row', { name: /on lockedOut .*: error/ }).first()).toBeVisible()
  await expectNoAxeViolations(page, 'Audit')
})

test('the Workbench: a call, its command, the protocol log and a tried server', async ({
  page,
  launch,
}) => {
  test.setTimeout(180_000)
  await openDemo(page, launch)
  await nav(page, 'Workbench')
  const main = page.getByRole('main', { name: 'Workbench' })
  await main.getByLabel('Server', { exact: true }).selectOption('knowledgeSearch')
  await page
    .getByRole('navigation', { name: 'Tools of knowledgeSearch' })
    .getByRole('button', { name: 'rag_search', exact: true })
    .click()
  const call = page.getByRole('region', { name: 'Call rag_search' })
  await call.getByRole('textbox', { name: 'search_phrases 1 string' }).fill('vpn setup')
  await call.getByRole('button', { name: 'Call rag_search' }).click()
  await expect(call.getByRole('region', { name: 'Result' })).toBeVisible()
  await call.getByRole('button', { name: 'Copy as command' }).click()
  await expect(call.getByRole('region', { name: 'Call as command' })).toBeVisible()
  await expectNoAxeViolations(page, 'Workbench, a tool call and its result')
  await call.getByRole('button', { name: 'Save request' }).click()
  await auditDialog(page, 'Save request', 'Workbench, the save-request dialog')
  // knowledgeSearch offers no resources or prompts: no tabs for them (audited on a server that
  // does, below).
  await expect(main.getByRole('tab', { name: /^(Resources|Prompts)/ })).toHaveCount(0)
  await main.getByRole('tab', { name: /^Protocol log/ }).click()
  await expectNoAxeViolations(page, 'Workbench, Protocol log')
  await main.getByRole('button', { name: 'Try a server…' }).click()
  const trying = dialog(page, 'Try a server')
  await trying.getByRole('textbox', { name: 'URL' }).fill(demo().urls.vtex)
  await expectNoAxeViolations(page, 'Workbench, the try-a-server dialog')
  await trying.getByRole('button', { name: 'Connect' }).click()
  await expect(main.getByText(/^try-\d+ is being tried \(http\), not saved$/)).toBeVisible()
  await expectNoAxeViolations(page, 'Workbench, a tried server')
  await main.getByRole('button', { name: 'Add to registry…' }).click()
  await auditDialog(page, /^Add try-\d+ to the registry$/, 'Workbench, the add-to-registry dialog')
})

test('Evaluation: a set and its editor, runs with their charts, two runs compared', async ({
  page,
  launch,
}) => {
  test.setTimeout(180_000)
  await openDemo(page, launch)
  await saveDemoUsers(page)
  await nav(page, 'Evaluation')
  const evaluation = page.getByRole('main', { name: 'Evaluation' })
  await expect(evaluation.getByRole('table', { name: 'Queries' })).toContainText('vpn setup')
  await expectNoAxeViolations(page, 'Evaluation, golden sets')
  await evaluation.getByRole('button', { name: 'New set' }).click()
  await auditDialog(page, 'New golden set', 'Evaluation, the new-set dialog')
  await evaluation.getByRole('button', { name: 'Delete set' }).click()
  await auditDialog(page, /^Delete .*\?$/, 'Evaluation, the delete-set dialog')
  await evaluation.getByRole('tab', { name: /^Runs/ }).click()
  await runGoldenSet(page, 1)
  await expect(evaluation.getByRole('table', { name: 'Metrics' })).toBeVisible()
  await expectNoAxeViolations(page, 'Evaluation, runs')
  await runGoldenSet(page, 2, 'documentVault')
  await evaluation.getByRole('tab', { name: 'Compare' }).click()
  await expect(evaluation.getByRole('table', { name: 'Metric changes' })).toBeVisible()
  await expectNoAxeViolations(page, 'Evaluation, compare')
})

test('charts have a table or words a screen reader reaches', async ({ page, launch }) => {
  test.setTimeout(180_000)
  const { host } = await launch(demoRegistry(demo()), {
    env: { ...demo().env, RAG_CONSOLE_HOME: dataDirWithDemoSet() },
  })
  await openSearch(page, host.url, true)
  await saveDemoUsers(page)
  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  // The waterfall is a table: each server's latency and status in words.
  const waterfall = page.getByRole('table', { name: 'Latency by server' })
  await expect(waterfall.getByRole('row', { name: 'knowledgeSearch' })).toContainText(
    new RegExp(`(${LATENCY.source}).*ok`),
  )

  // Health: each latency chart opens as a table of its points.
  await nav(page, 'Health')
  const health = page.getByRole('region', { name: 'Health of knowledgeSearch' })
  const toggle = health.getByRole('button', {
    name: 'Data table of search latency of knowledgeSearch',
  })
  await toggle.focus()
  await page.keyboard.press('Enter')
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  const points = health.getByRole('table', { name: 'search latency of knowledgeSearch' })
  await expect(points.getByRole('columnheader')).toHaveText(['Time', 'p50', 'p95', 'p99'])
  await expect(points.getByRole('row').nth(1)).toContainText(
    new RegExp(`^\\d\\d:\\d\\d.*(${LATENCY.source})`),
  )
  await expectNoAxeViolations(page, 'Health, a chart as a table')

  // Evaluation: the bars carry their values; every heatmap cell reads as a value or in words.
  await nav(page, 'Evaluation')
  const evaluation = page.getByRole('main', { name: 'Evaluation' })
  await evaluation.getByRole('tab', { name: /^Runs/ }).click()
  await runGoldenSet(page, 1)
  const bars = evaluation.getByRole('figure', { name: /per list$/ }).getByRole('listitem')
  await expect(bars.first()).toContainText(/\d\.\d\d/)
  const heatmap = evaluation.getByRole('table', { name: /per query and list$/ })
  const cells = await heatmap
    .getByRole('cell')
    .evaluateAll((all) => all.map((cell) => cell.textContent ?? ''))
  expect(cells.length).toBeGreaterThan(10)
  expect(cells.filter((text) => !/\w/.test(text))).toEqual([])
})

test('every panel of an empty registry', async ({ page, launch }) => {
  test.setTimeout(120_000)
  const { host } = await launch({})
  await page.goto(host.url)
  for (const panel of PANELS) {
    await nav(page, panel)
    await expect(page.getByRole('heading', { name: panel, level: 1 })).toBeVisible()
    await expectNoAxeViolations(page, `${panel}, empty`)
  }
})

test('the embedded demo registry and its popover', async ({ page, launchEmbedded }) => {
  const host = await launchEmbedded()
  await page.goto(host.url)
  await page.getByRole('button', { name: /^Registry: demo registry/ }).click()
  await expect(dialog(page, 'Registry source')).toContainText('--config FILE')
  await expectNoAxeViolations(page, 'the demo registry and its popover')
})

test('config, secrets, import and profile dialogs, and a broken registry', async ({
  page,
  launch,
}) => {
  test.setTimeout(180_000)
  const servers: Record<string, Entry> = {
    docs: httpServer('Docs', { headers: { Authorization: 'Bearer ${keychain:apiKey}' } }),
    localKb: { command: 'node', args: ['kb.js'], env: { KB_TOKEN: '${session:token}' } },
  }
  const { host, file, dir } = await launch(servers)
  await page.goto(host.url)
  await expectNoAxeViolations(page, 'Servers, every server down')

  await openConfig(page)
  await replaceEditorText(
    page,
    registryText({ ...servers, alpha: httpServer('Alpha', { transport: 'htp' }) }),
  )
  await expect(page.getByRole('region', { name: 'Problems' })).toContainText('alpha.transport')
  await expectNoAxeViolations(page, 'Config, an invalid edit')
  await page.getByRole('button', { name: 'Save…' }).click()
  await auditDialog(page, 'Save rag-mcp.json?', 'Config, the save dialog refusing')
  await replaceEditorText(page, registryText({ ...servers, alpha: httpServer('Alpha') }))
  await page.getByRole('button', { name: 'Save…' }).click()
  await auditDialog(page, 'Save rag-mcp.json?', 'Config, the save dialog')
  writeFileSync(file, registryText({ ...servers, zeta: httpServer('Zeta') }))
  const notice = page
    .getByRole('alert')
    .filter({ hasText: 'changed on disk while you were editing' })
  await expect(notice).toBeVisible()
  await expectNoAxeViolations(page, 'Config, changed on disk')
  await notice.getByRole('button', { name: 'Compare…' }).click()
  // A changed line says so in words, not only by its colour.
  const sides = dialog(page, 'Compare with the file on disk').getByRole('table')
  await expect(sides).toContainText('removed: "zeta"')
  await expect(sides).toContainText('added: "alpha"')
  await auditDialog(page, 'Compare with the file on disk', 'Config, the compare dialog')
  await page.keyboard.press('ControlOrMeta+1')
  await auditDialog(page, 'Discard unsaved changes?', 'the unsaved-changes guard')
  await page.getByRole('button', { name: 'Revert' }).click()

  writeFileSync(file, '{ "docs": ')
  await expect(page.getByRole('alert').filter({ hasText: 'on disk is invalid' })).toBeVisible()
  await expectNoAxeViolations(page, 'Config, the registry on disk is invalid')
  writeFileSync(file, registryText(servers))
  await expect(page.getByRole('alert').filter({ hasText: 'on disk is invalid' })).toBeHidden()

  await openConfig(page, 'Secrets')
  await expect(page.getByRole('rowgroup', { name: 'docs' })).toBeVisible()
  await expectNoAxeViolations(page, 'Config, secrets')
  await page.getByRole('button', { name: 'Set apiKey for docs' }).click()
  await dialog(page, 'Set apiKey for docs').getByRole('button', { name: 'Set secret' }).click()
  await expect(dialog(page, 'Set apiKey for docs')).toContainText('the value is empty')
  await auditDialog(page, 'Set apiKey for docs', 'Config, the set-secret dialog refusing')
  await page.getByRole('button', { name: 'Set token for localKb' }).click()
  const token = dialog(page, 'Set token for localKb')
  await token.getByLabel('Value').fill('a-session-token')
  await token.getByRole('button', { name: 'Set for this session' }).click()
  await expect(token).toBeHidden()
  await page.getByRole('button', { name: 'Clear session token token for localKb' }).click()
  await auditDialog(page, 'Clear session token token?', 'Config, the clear-token dialog')

  writeFileSync(
    join(dir, 'claude.json'),
    JSON.stringify({
      mcpServers: {
        kb: {
          command: 'node',
          args: ['kb.js'],
          env: { OPENAI_API_KEY: 'sk-live-0123456789abcdefghijklmn' },
        },
      },
    }),
  )
  await openConfig(page, 'Import')
  await expectNoAxeViolations(page, 'Config, import')
  await page.getByRole('radio', { name: 'Another file' }).check()
  await page.getByLabel('Path of the file').fill(join(dir, 'claude.json'))
  await page.getByRole('button', { name: 'Preview import' }).click()
  const preview = page.getByRole('region', { name: 'Import preview' })
  await expect(preview).toContainText('Credentials that go to the keychain')
  await expectNoAxeViolations(page, 'Config, the import preview')
  await preview.getByRole('button', { name: 'Import 1 server…' }).click()
  await auditDialog(page, 'Import 1 server?', 'Config, the import confirmation')

  await page.getByRole('button', { name: 'Manage profiles' }).click()
  const profiles = dialog(page, 'Acting-user profiles')
  await profiles.getByRole('button', { name: 'New profile' }).click()
  await profiles.getByLabel('Name').fill('Temp')
  await profiles.getByRole('button', { name: 'Create profile' }).click()
  await expect(profiles.getByLabel('User id')).toHaveAttribute('aria-invalid', 'true')
  await expectNoAxeViolations(page, 'the profiles dialog, a field refused')
  await profiles.getByLabel('User id').fill('temp')
  await profiles.getByRole('button', { name: 'Create profile' }).click()
  await profiles.getByRole('button', { name: 'Delete' }).click()
  await auditDialog(page, 'Delete profile Temp?', 'the delete-profile dialog')
  await page.keyboard.press('Escape')

  await nav(page, 'Workbench')
  const main = page.getByRole('main', { name: 'Workbench' })
  await main.getByRole('button', { name: 'Try a server…' }).click()
  const trying = dialog(page, 'Try a server')
  await trying.getByLabel('Transport').selectOption('stdio')
  await trying.getByRole('textbox', { name: 'Command' }).fill(process.execPath)
  await trying.getByRole('button', { name: 'Connect' }).click()
  await expect(dialog(page, 'Run this command?')).toBeVisible()
  await expectNoAxeViolations(page, 'Workbench, the run-this-command dialog')
})

/** A stdio server whose `ask` tool asks for a form. */
const asker: Entry = {
  transport: 'stdio',
  command: process.execPath,
  args: [join(root, 'src/test/fixtures/pool/elicit-stdio-server.mjs')],
  description: 'Asks for a form on every call',
}

test('while waiting: a search in flight', async ({ page, launch }) => {
  const { host } = await launch({ fast: slowServer('fast', 0), slow: slowServer('slow', 60_000) })
  await openSearch(page, host.url)
  await expect(page.getByRole('button', { name: /^Sources: 2 servers/ })).toBeVisible()
  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  const waterfall = page.getByRole('table', { name: 'Latency by server' })
  await expect(waterfall.getByRole('row', { name: 'fast' })).toContainText('ok')
  await expect(waterfall.getByRole('row', { name: 'slow' })).toContainText('waiting')
  await expectNoAxeViolations(page, 'Search, in flight')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(waterfall.getByRole('row', { name: 'slow' })).toContainText('cancelled')
})

test('a form a server asks for', async ({ page, launch }) => {
  const { host } = await launch({ asker })
  await page.goto(host.url)
  await expect(page.getByRole('region', { name: 'asker' }).getByText('ready')).toBeVisible()
  const answered = invoke(page, 'workbench:call', {
    server: 'asker',
    tool: 'ask',
    arguments: { form: 'required' },
    timeoutMs: 60_000,
  })
  const form = dialog(page, 'asker asks')
  await expect(form).toBeVisible()
  await form.getByRole('button', { name: 'Send' }).click()
  await expect(form.getByText('Required', { exact: true })).toBeVisible()
  await expectNoAxeViolations(page, 'a server’s form (elicitation), refused')
  await form.getByRole('button', { name: 'Decline' }).click()
  await answered
})

test('the Workbench’s resources and prompts of a server that offers them', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ everything })
  await page.goto(host.url)
  await expect(page.getByRole('region', { name: 'everything' }).getByText('ready')).toBeVisible()
  await nav(page, 'Workbench')
  const main = page.getByRole('main', { name: 'Workbench' })
  await main.getByRole('tab', { name: /^Resources/ }).click()
  await expect(main.getByRole('list', { name: 'Resources of everything' })).toBeVisible()
  await expectNoAxeViolations(page, 'Workbench, Resources')
  await main.getByRole('tab', { name: /^Prompts/ }).click()
  await expect(main.getByRole('list', { name: 'Prompts of everything' })).toBeVisible()
  await expectNoAxeViolations(page, 'Workbench, Prompts')
})
