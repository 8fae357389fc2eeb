import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, invoke, replaceEditorText, screenshots, test, type Entry } from './console'
import { demoRegistry, EVERYTHING, everything, useDemoServers } from './demo'
import { root } from './host'

const demo = useDemoServers()

const registry = (): Record<string, Entry> => ({ ...demoRegistry(demo()), everything })

/** Opens the Workbench (Ctrl/⌘+7) on `server`; without `url`, reloads the page first. */
async function openWorkbench(page: Page, url: string | null, server: string): Promise<void> {
  if (url === null) await page.reload()
  else await page.goto(url)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await page.keyboard.press('ControlOrMeta+7')
  const main = page.getByRole('main', { name: 'Workbench' })
  await expect(main.getByRole('heading', { name: 'Workbench', level: 1 })).toBeVisible()
  await chooseServer(page, server)
}

async function chooseServer(page: Page, server: string): Promise<void> {
  await page
    .getByRole('main', { name: 'Workbench' })
    .getByLabel('Server', { exact: true })
    .selectOption(server)
}

/** Chooses a tool of the server shown and returns its call form. */
async function openTool(page: Page, server: string, tool: string) {
  await page
    .getByRole('navigation', { name: `Tools of ${server}` })
    .getByRole('button', { name: tool, exact: true })
    .click()
  return page.getByRole('region', { name: `Call ${tool}` })
}

/** Calls server-everything's get-sum from its form (timeout too, if given); resolves with the form. */
async function callGetSum(page: Page, a: string, b: string, timeout?: string) {
  const form = await openTool(page, 'everything', 'get-sum')
  await form.getByRole('textbox', { name: 'a number' }).fill(a)
  await form.getByRole('textbox', { name: 'b number' }).fill(b)
  if (timeout) await form.getByRole('textbox', { name: 'Timeout (ms)' }).fill(timeout)
  await form.getByRole('button', { name: 'Call get-sum' }).click()
  await expect(form.getByRole('region', { name: 'Result' })).toBeVisible()
  return form
}

test('calls any tool from a form built from its schema: validation, content blocks, tool errors, cancel and timeout', async ({
  page,
  launch,
}) => {
  const { host } = await launch(registry(), { env: demo().env })
  await openWorkbench(page, host.url, 'everything')

  // Numbers are checked before anything is sent; the required field is named.
  let form = await openTool(page, 'everything', 'get-sum')
  await form.getByRole('textbox', { name: 'a number' }).fill('two')
  await form.getByRole('button', { name: 'Call get-sum' }).click()
  await expect(form.getByRole('textbox', { name: 'a number' })).toHaveAccessibleDescription(
    /must be a number/,
  )
  await expect(form.getByRole('textbox', { name: 'b number' })).toHaveAccessibleDescription(
    /is required/,
  )
  await expect(form.getByRole('listitem').filter({ hasText: '/b is required' })).toBeVisible()
  await form.getByRole('textbox', { name: 'a number' }).fill('2')
  await form.getByRole('textbox', { name: 'b number' }).fill('40')
  // The core checks them against the whole schema without calling.
  await form.getByRole('button', { name: 'Check arguments' }).click()
  await expect(
    form.getByRole('status').filter({ hasText: 'The arguments fit the schema.' }),
  ).toBeVisible()
  await form.getByRole('button', { name: 'Call get-sum' }).click()
  const result = form.getByRole('region', { name: 'Result' })
  await expect(result.getByText('ok', { exact: true })).toBeVisible()
  await expect(result.getByRole('list', { name: 'Content blocks' })).toContainText('42')

  // The same call as JSON, with completion from the input schema.
  await form.getByRole('tab', { name: 'JSON' }).click()
  const editor = form.getByRole('textbox', { name: 'Arguments of get-sum (JSON)' })
  await expect(editor).toContainText('"a": 2')
  await replaceEditorText(page, '{"a": 1, }', editor)
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.type('"')
  await page
    .getByRole('listbox', { name: 'Completions' })
    .getByRole('option', { name: /^b/ })
    .click()
  await page.keyboard.type('5')
  await form.getByRole('button', { name: 'Call get-sum' }).click()
  await expect(result.getByRole('list', { name: 'Content blocks' })).toContainText('6')

  // An image block, shown inline.
  form = await openTool(page, 'everything', 'get-tiny-image')
  await form.getByRole('button', { name: 'Call get-tiny-image' }).click()
  await expect(form.getByRole('img', { name: /image/ })).toBeVisible()

  // Structured content beside the blocks; an enum is a choice.
  form = await openTool(page, 'everything', 'get-structured-content')
  await form.getByLabel(/^location/).selectOption({ label: 'New York' })
  await form.getByRole('button', { name: 'Call get-structured-content' }).click()
  await expect(form.getByLabel('Structured content')).toContainText('temperature')
  await page.setViewportSize({ width: 1440, height: 900 })
  await screenshots(page, 'workbench-call-1440')
  await page.setViewportSize({ width: 1024, height: 700 })
  await screenshots(page, 'workbench-call-1024')

  // Cancel a running call, then let one run into its timeout.
  form = await openTool(page, 'everything', 'trigger-long-running-operation')
  await form.getByRole('textbox', { name: 'duration number' }).fill('30')
  await form.getByRole('button', { name: 'Call trigger-long-running-operation' }).click()
  await form.getByRole('button', { name: 'Cancel' }).click()
  const failed = form
    .getByRole('alert')
    .filter({ hasText: 'The call to trigger-long-running-operation failed' })
  await expect(failed).toContainText(/cancel/i)
  await form.getByRole('textbox', { name: 'Timeout (ms)' }).fill('300')
  await form.getByRole('button', { name: 'Call trigger-long-running-operation' }).click()
  await expect(failed).toContainText(/timed out|timeout/i)
  await expect(failed).not.toContainText(/cancel/i)

  // A demo server: a tool error (isError) is shown as such.
  await chooseServer(page, 'documentVault')
  form = await openTool(page, 'documentVault', 'get_document')
  await form.getByRole('textbox', { name: 'document_id string' }).fill('no-such-doc')
  await form.getByRole('button', { name: 'Call get_document' }).click()
  await expect(form.getByText('tool error', { exact: true })).toBeVisible()
  await expect(form.getByLabel('Block 1: text')).toContainText(
    'Document not found in this vault: no-such-doc',
  )

  // An array with a minimum of one item (rag-search).
  await chooseServer(page, 'knowledgeSearch')
  form = await openTool(page, 'knowledgeSearch', 'rag_search')
  await form.getByRole('textbox', { name: 'search_phrases 1 string' }).fill('vpn setup')
  await form.getByRole('button', { name: 'Call rag_search' }).click()
  await expect(form.getByLabel('Raw result')).toContainText('segments')
})

test('the protocol log shows the traffic live: filter, pin, expand, level, headers, export and clear', async ({
  page,
  launch,
}) => {
  const { host } = await launch(registry(), { env: demo().env })
  await openWorkbench(page, host.url, 'everything')
  const main = page.getByRole('main', { name: 'Workbench' })
  await callGetSum(page, '1', '2')
  // A large reply: kept as a preview in the list.
  let form = await openTool(page, 'everything', 'get-env')
  await form.getByRole('button', { name: 'Call get-env' }).click()
  await expect(form.getByRole('region', { name: 'Result' })).toBeVisible()

  await main.getByRole('tab', { name: 'Protocol log' }).click()
  const log = main.getByRole('table', { name: 'Protocol log of everything' })
  await expect(log.getByRole('row', { name: /^out tools\/call/ })).toHaveCount(2)
  await expect(log.getByRole('row', { name: /^in response/ }).first()).toBeVisible()

  // Filter by text; a pinned entry stays whatever the filter.
  await log
    .getByRole('row', { name: /^out initialize/ })
    .getByRole('button', { name: /^Pin entry/ })
    .click()
  await main.getByRole('searchbox', { name: 'Filter' }).fill('tools/call')
  await expect(log.getByRole('row', { name: /^out initialize/ })).toBeVisible()
  await expect(log.getByRole('row', { name: /^out tools\/list/ })).toHaveCount(0)
  await expect(main.getByText(/^3 of \d+ messages$/)).toBeVisible()
  await main.getByRole('searchbox', { name: 'Filter' }).fill('')

  // A stdio server's stderr lines are part of its log.
  await main.getByLabel('Direction').selectOption('stderr')
  await expect(log.getByRole('row', { name: /^stderr stderr/ }).first()).toBeVisible()
  await expect(log.getByRole('row', { name: /^out tools/ })).toHaveCount(0)
  await main.getByLabel('Direction').selectOption('all')

  // A large reply was cut; the whole message is fetched on request.
  await log
    .getByRole('row', { name: /^in response.*\(preview\)$/ })
    .first()
    .getByRole('button', { name: /response/ })
    .click()
  const entry = main.getByRole('region', { name: /^Entry \d+$/ })
  const preview = (await entry.getByLabel('Message').textContent()) ?? ''
  await entry.getByRole('button', { name: 'Show the whole message' }).click()
  await expect(entry.getByRole('button', { name: 'Show the whole message' })).toBeHidden()
  expect(((await entry.getByLabel('Message').textContent()) ?? '').length).toBeGreaterThan(
    preview.length,
  )
  await entry.getByRole('button', { name: 'Close the entry' }).click()

  // logging/setLevel, then the server's notifications/message arrive live.
  await main.getByLabel('Server log level').selectOption('debug')
  await main.getByRole('button', { name: 'Set level' }).click()
  await expect(page.getByText('everything now logs from debug up.')).toBeVisible()
  await expect(log.getByRole('row', { name: /^out logging\/setLevel/ })).toBeVisible()
  await main.getByRole('tab', { name: 'Tools' }).click()
  form = await openTool(page, 'everything', 'toggle-simulated-logging')
  await form.getByRole('button', { name: 'Call toggle-simulated-logging' }).click()
  await main.getByRole('tab', { name: 'Protocol log' }).click()
  // The log kept its state (level, pins) while another tab was shown.
  await expect(main.getByLabel('Server log level')).toHaveValue('debug')
  await expect(log.getByRole('row', { name: /^in notifications\/message/ }).first()).toBeVisible()
  await page.setViewportSize({ width: 1440, height: 900 })
  await screenshots(page, 'workbench-protocol-log-1440')
  await page.setViewportSize({ width: 1024, height: 700 })
  await screenshots(page, 'workbench-protocol-log-1024')

  // Export what is shown as JSON lines.
  const download = page.waitForEvent('download')
  await main.getByRole('button', { name: 'Export JSONL' }).click()
  const file = await (await download).path()
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
  expect(lines.length).toBeGreaterThan(5)
  expect(
    lines.map((line) => JSON.parse(line) as { method?: string }).map((e) => e.method),
  ).toContain('tools/call')

  await main.getByRole('button', { name: 'Clear' }).click()
  await expect(main.getByText(/^\d+ messages?$/)).toHaveText(/^[0-3] messages?$/)

  // An HTTP server: the status and the headers the console added, credentials redacted.
  await chooseServer(page, 'knowledgeSearch')
  await main.getByRole('tab', { name: 'Tools' }).click()
  form = await openTool(page, 'knowledgeSearch', 'rag_search')
  await form.getByRole('textbox', { name: 'search_phrases 1 string' }).fill('vpn')
  await form.getByRole('button', { name: 'Call rag_search' }).click()
  await expect(form.getByRole('region', { name: 'Result' })).toBeVisible()
  await main.getByRole('tab', { name: 'Protocol log' }).click()
  const http = main.getByRole('table', { name: 'Protocol log of knowledgeSearch' })
  await http
    .getByRole('row', { name: /^out tools\/call/ })
    .getByRole('button', { name: /tools\/call/ })
    .click()
  const headers = main.getByRole('definition').or(main.getByRole('term'))
  await expect(main.getByLabel('Headers the console added')).toContainText('x-user-id')
  await expect(main.getByLabel('Headers the console added')).toContainText('[redacted]')
  await expect(main.getByLabel('Headers the console added')).not.toContainText(
    demo().env.RC_E2E_SEARCH_KEY!,
  )
  expect(await headers.count()).toBeGreaterThan(1)
  await expect(main.getByRole('region', { name: /^Entry \d+$/ })).toContainText('HTTP 200')
})

const PAGED = join(root, 'src/test/fixtures/pool/paged-stdio-server.mjs')

test('resources and prompts: pages, read text and binary, templates, subscribe, prompts with arguments, VTEX rag:// resources', async ({
  page,
  launch,
}) => {
  const paged: Entry = { command: process.execPath, args: [PAGED] }
  const { host } = await launch({ ...registry(), paged }, { env: demo().env })
  await openWorkbench(page, host.url, 'everything')
  const main = page.getByRole('main', { name: 'Workbench' })
  await main.getByRole('tab', { name: 'Resources' }).click()

  // A text resource, then a binary one through its template; subscribe where supported.
  const resources = main.getByRole('list', { name: 'Resources of everything' })
  await resources
    .getByRole('button', { name: /demo:\/\/resource\/static\/document\/architecture\.md/ })
    .click()
  const shown = main.getByRole('region', { name: /^Resource demo:\/\/resource\/static/ })
  await expect(shown.getByLabel('Content 1')).not.toBeEmpty()
  const templates = main.getByRole('list', { name: 'Resource templates of everything' })
  const blob = templates
    .getByRole('listitem')
    .filter({ hasText: '{resourceId}' })
    .filter({ hasText: 'blob' })
  await blob.getByRole('textbox', { name: 'resourceId' }).fill('3')
  await blob.getByRole('button', { name: 'Read' }).click()
  const binary = main.getByRole('region', { name: 'Resource demo://resource/dynamic/blob/3' })
  // A text blob is decoded for reading.
  await expect(binary.getByText('blob', { exact: true })).toBeVisible()
  await expect(binary.getByLabel('Content 1')).toContainText(/\w+/)
  await binary.getByRole('button', { name: 'Subscribe to updates' }).click()
  await expect(binary.getByRole('button', { name: 'Unsubscribe' })).toBeVisible()
  await screenshots(page, 'workbench-resources')

  // Prompts with arguments.
  await main.getByRole('tab', { name: 'Prompts' }).click()
  await main
    .getByRole('list', { name: 'Prompts of everything' })
    .getByRole('button', { name: /^args-prompt/ })
    .click()
  const prompt = main.getByRole('region', { name: 'Prompt args-prompt' })
  await expect(prompt.getByRole('button', { name: 'Get prompt' })).toBeDisabled()
  await prompt.getByRole('textbox', { name: /^city/ }).fill('Paris')
  await prompt.getByRole('button', { name: 'Get prompt' }).click()
  await expect(prompt.getByRole('list', { name: 'Messages' })).toContainText('Paris')
  await screenshots(page, 'workbench-prompts')

  // Pagination: one page at a time, more on request.
  await chooseServer(page, 'paged')
  await expect(
    main.getByRole('list', { name: 'Prompts of paged' }).getByRole('listitem'),
  ).toHaveCount(2)
  await main.getByRole('button', { name: 'Load more prompts' }).click()
  await expect(
    main.getByRole('list', { name: 'Prompts of paged' }).getByRole('listitem'),
  ).toHaveCount(3)
  await expect(main.getByRole('button', { name: 'Load more prompts' })).toBeHidden()
  await main.getByRole('tab', { name: 'Resources' }).click()
  const pagedList = main.getByRole('list', { name: 'Resources of paged' })
  await expect(pagedList.getByRole('listitem')).toHaveCount(2)
  await main.getByRole('button', { name: 'Load more resources' }).click()
  await expect(pagedList.getByRole('listitem')).toHaveCount(4)
  const doc = main.getByRole('list', { name: 'Resource templates of paged' }).getByRole('listitem')
  await doc.getByRole('textbox', { name: 'id' }).fill('2')
  await doc.getByRole('textbox', { name: 'fmt' }).fill('md')
  await doc.getByRole('button', { name: 'Read' }).click()
  await expect(main.getByRole('region', { name: 'Resource paged://doc/2?fmt=md' })).toBeVisible()

  // VTEX: its rag:// resources are read here.
  await chooseServer(page, 'productCatalog')
  await main
    .getByRole('list', { name: 'Resources of productCatalog' })
    .getByRole('button', { name: /rag:\/\/categories/ })
    .click()
  await expect(
    main.getByRole('region', { name: 'Resource rag://categories' }).getByLabel('Content 1'),
  ).toContainText('Technical')
  // VTEX declares resources but no prompts: no Prompts tab.
  await expect(main.getByRole('tab', { name: 'Prompts' })).toHaveCount(0)

  // RAGbox declares neither: only its tools and traffic, and the Resources tab gives way to Tools.
  await chooseServer(page, 'documentVault')
  await expect(main.getByRole('tab', { name: 'Tools' })).toHaveAttribute('aria-selected', 'true')
  await expect(main.getByRole('tab', { name: 'Resources' })).toHaveCount(0)
  await expect(main.getByRole('tab', { name: 'Prompts' })).toHaveCount(0)
  await expect(main.getByRole('tab', { name: 'Protocol log' })).toBeVisible()
  await screenshots(page, 'workbench-no-resources')
})

test('tries a server without saving it: HTTP with a secret header, stdio after confirmation, then adds one to the registry', async ({
  page,
  launch,
}) => {
  const { host, file } = await launch(registry(), { env: demo().env })
  const before = readFileSync(file, 'utf8')
  const key = demo().env.RC_E2E_VAULT_KEY!
  await openWorkbench(page, host.url, 'everything')
  const main = page.getByRole('main', { name: 'Workbench' })

  // HTTP with a credential header: usable, never shown, never written.
  await main.getByRole('button', { name: 'Try a server…' }).click()
  let dialog = page.getByRole('dialog', { name: 'Try a server' })
  await dialog.getByRole('textbox', { name: 'URL' }).fill(demo().urls.ragbox)
  await dialog.getByRole('button', { name: 'Add header' }).click()
  await dialog.getByRole('textbox', { name: 'Header 1 name' }).fill('X-API-Key')
  await dialog.getByLabel('Header 1 value').fill(key)
  await screenshots(page, 'workbench-try')
  await dialog.getByRole('button', { name: 'Connect' }).click()
  await expect(main.getByText(/^try-\d+ is being tried \(http\), not saved$/)).toBeVisible()
  await expect(main.getByText('headers: X-API-Key')).toBeVisible()
  const tried = await main.getByLabel('Server', { exact: true }).inputValue()
  let form = await openTool(page, tried, 'search_documents')
  await form.getByRole('textbox', { name: 'query string' }).fill('security')
  await form.getByRole('button', { name: 'Call search_documents' }).click()
  await expect(
    form.getByRole('region', { name: 'Result' }).getByText('ok', { exact: true }),
  ).toBeVisible()
  await main.getByRole('tab', { name: 'Protocol log' }).click()
  await main
    .getByRole('table', { name: `Protocol log of ${tried}` })
    .getByRole('row', { name: /^out tools\/call/ })
    .getByRole('button', { name: /tools\/call/ })
    .click()
  await expect(main.getByLabel('Headers the console added')).toContainText('[redacted]')
  expect(await page.content()).not.toContain(key)
  expect(readFileSync(file, 'utf8')).toBe(before)
  await main.getByRole('button', { name: `Close ${tried}` }).click()
  await expect(main.getByText(/is being tried/)).toBeHidden()

  // stdio runs a program: asked first; cancelling runs nothing.
  await main.getByRole('button', { name: 'Try a server…' }).click()
  dialog = page.getByRole('dialog', { name: 'Try a server' })
  await dialog.getByLabel('Transport').selectOption('stdio')
  await dialog.getByRole('textbox', { name: 'Command' }).fill(process.execPath)
  await dialog
    .getByRole('textbox', { name: 'Arguments, one per line' })
    .fill(`${EVERYTHING}\nstdio`)
  await dialog.getByRole('button', { name: 'Connect' }).click()
  const confirm = page.getByRole('dialog', { name: 'Run this command?' })
  await expect(confirm).toContainText(EVERYTHING)
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(main.getByText(/is being tried/)).toBeHidden()
  await dialog.getByRole('button', { name: 'Connect' }).click()
  await confirm.getByRole('button', { name: 'Run and connect' }).click()
  await expect(main.getByText(/^try-\d+ is being tried \(stdio\), not saved$/)).toBeVisible()
  const stdio = await main.getByLabel('Server', { exact: true }).inputValue()
  await main.getByRole('tab', { name: 'Tools' }).click()
  form = await openTool(page, stdio, 'echo')
  await form.getByRole('textbox', { name: 'message string' }).fill('hello from a tried server')
  await form.getByRole('button', { name: 'Call echo' }).click()
  await expect(form.getByRole('list', { name: 'Content blocks' })).toContainText(
    'hello from a tried server',
  )
  await main.getByRole('button', { name: `Close ${stdio}` }).click()
  // Closed once its banner is gone: until then the Server list still names it, wider, and the
  // button beside the list moves when it narrows.
  await expect(main.getByText(/is being tried/)).toBeHidden()

  // A server without secrets, tried and then added to rag-mcp.json.
  await main.getByRole('button', { name: 'Try a server…' }).click()
  dialog = page.getByRole('dialog', { name: 'Try a server' })
  // The dialog remembers the last transport.
  await expect(dialog.getByLabel('Transport')).toHaveValue('stdio')
  await dialog.getByLabel('Transport').selectOption('http')
  await dialog.getByRole('textbox', { name: 'URL' }).fill(demo().urls.vtex)
  await dialog.getByRole('button', { name: 'Connect' }).click()
  await main.getByRole('button', { name: 'Add to registry…' }).click()
  const add = page.getByRole('dialog', { name: /^Add try-\d+ to the registry$/ })
  await add.getByRole('textbox', { name: 'Server id' }).fill('catalogCopy')
  await add.getByRole('button', { name: 'Add' }).click()
  await expect(page.getByText('Added catalogCopy to rag-mcp.json.')).toBeVisible()
  await expect(main.getByLabel('Server', { exact: true })).toHaveValue('catalogCopy')
  const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { url?: string }>
  expect(written.catalogCopy?.url).toBe(demo().urls.vtex)
  expect(readFileSync(file, 'utf8')).not.toContain(key)
})

test('keeps a tried server listed across a reload until closed, and fills in a tried rag-tools-v1 username itself', async ({
  page,
  launch,
}) => {
  const { host } = await launch(registry(), { env: demo().env })
  await openWorkbench(page, host.url, 'everything')
  const main = page.getByRole('main', { name: 'Workbench' })
  const tryButton = main.getByRole('button', { name: 'Try a server…' })
  const before = await tryButton.boundingBox()
  await tryButton.click()
  const dialog = page.getByRole('dialog', { name: 'Try a server' })
  await dialog.getByLabel('Transport').selectOption('sse')
  await dialog.getByRole('textbox', { name: 'URL' }).fill(demo().urls.ragToolsSse)
  await dialog.getByRole('button', { name: 'Connect' }).click()
  await expect(main.getByText(/^try-\d+ is being tried \(sse\), not saved$/)).toBeVisible()
  const tried = await main.getByLabel('Server', { exact: true }).inputValue()
  // The head does not shift, and the Server list names it as tried (its URL is in the banner).
  expect(await tryButton.boundingBox()).toEqual(before)
  await expect(main.getByLabel('Server', { exact: true }).locator('option:checked')).toHaveText(
    `${tried} (tried)`,
  )
  const form = await openTool(page, tried, 'rag_get_raw_results')
  await expect(form.getByRole('textbox', { name: 'query string' })).toBeVisible()
  // The console sends the acting user as `username`: the form neither shows nor requires it.
  await expect(form.getByRole('textbox', { name: /^username/ })).toHaveCount(0)
  await screenshots(page, 'workbench-tried-rag-tools')

  // A reload forgets what the page knew; the core still runs the server and lists it.
  await openWorkbench(page, null, tried)
  await expect(main.getByText(`${tried} is being tried (sse), not saved`)).toBeVisible()
  await main.getByRole('button', { name: `Close ${tried}` }).click()
  await expect(main.getByText(/is being tried/)).toBeHidden()
  await openWorkbench(page, host.url, 'everything')
  await expect(
    main.getByLabel('Server', { exact: true }).locator(`option[value="${tried}"]`),
  ).toHaveCount(0)
})

test('copies a call as a CLI and cURL command without secrets, saves requests across reloads and replays from the history', async ({
  page,
  launch,
}) => {
  const { host } = await launch(registry(), { env: demo().env })
  const key = demo().env.RC_E2E_SEARCH_KEY!

  // "Open in Workbench" from the Servers panel's Tools dialog.
  await page.goto(host.url)
  await page
    .getByRole('region', { name: 'knowledgeSearch', exact: true })
    .getByRole('button', { name: 'Tools of knowledgeSearch' })
    .click()
  await page
    .getByRole('dialog', { name: 'Tools of knowledgeSearch' })
    .getByRole('button', { name: 'Open in Workbench: rag_search' })
    .click()
  const main = page.getByRole('main', { name: 'Workbench' })
  let form = main.getByRole('region', { name: 'Call rag_search' })
  await expect(main.getByLabel('Server', { exact: true })).toHaveValue('knowledgeSearch')

  // Copy: the key is a placeholder in both commands.
  await form.getByRole('textbox', { name: 'search_phrases 1 string' }).fill('vpn setup')
  await form.getByRole('button', { name: 'Copy as command' }).click()
  const copied = form.getByRole('region', { name: 'Call as command' })
  await expect(copied.getByLabel('rag-console command', { exact: true })).toContainText(
    'rag_search',
  )
  await expect(copied.getByLabel('rag-console command', { exact: true })).toContainText('vpn setup')
  await expect(copied.getByLabel('cURL command', { exact: true })).toContainText(/^curl /)
  await expect(copied.getByLabel('cURL command', { exact: true })).toContainText('tools/call')
  await expect(copied).not.toContainText(key)
  await screenshots(page, 'workbench-copy')

  // Save, reload: the saved request is still there and loads into the form.
  await form.getByRole('button', { name: 'Save request' }).click()
  const save = page.getByRole('dialog', { name: 'Save request' })
  await save.getByRole('textbox', { name: 'Name' }).fill('VPN search')
  await save.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Saved "VPN search" for knowledgeSearch.')).toBeVisible()
  await form.getByRole('button', { name: 'Call rag_search' }).click()
  await expect(form.getByRole('region', { name: 'Result' })).toBeVisible()

  await page.reload()
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Workbench' })
    .click()
  await chooseServer(page, 'knowledgeSearch')
  form = await openTool(page, 'knowledgeSearch', 'rag_search')
  await expect(form.getByRole('textbox', { name: 'search_phrases 1 string' })).toHaveValue('')
  const saved = main.getByRole('list', { name: 'Saved requests' })
  await expect(saved).toContainText('VPN search')
  await saved.getByRole('button', { name: 'Load VPN search' }).click()
  await expect(form.getByRole('textbox', { name: 'search_phrases 1 string' })).toHaveValue(
    'vpn setup',
  )

  // Replay from the history: the call's arguments come back and it runs again.
  await form.getByRole('textbox', { name: 'search_phrases 1 string' }).fill('something else')
  const history = main.getByRole('list', { name: 'History' })
  await history
    .getByRole('button', { name: /^Replay rag_search/ })
    .first()
    .click()
  await expect(form.getByRole('textbox', { name: 'search_phrases 1 string' })).toHaveValue(
    'vpn setup',
  )
  // The replay ran by itself: a second call in the history, its result shown.
  await expect(history.getByRole('listitem')).toHaveCount(2)
  await expect(form.getByRole('region', { name: 'Result' })).toBeVisible()

  // The history lists the newest call first.
  await chooseServer(page, 'everything')
  form = await openTool(page, 'everything', 'get-sum')
  await form.getByRole('textbox', { name: 'a number' }).fill('1')
  await form.getByRole('textbox', { name: 'b number' }).fill('1')
  await form.getByRole('button', { name: 'Call get-sum' }).click()
  form = await openTool(page, 'everything', 'get-tiny-image')
  await form.getByRole('button', { name: 'Call get-tiny-image' }).click()
  await expect(history.getByRole('listitem')).toHaveCount(2)
  await expect(history.getByRole('listitem').first()).toContainText('get-tiny-image')

  // A stdio server has no cURL form.
  await chooseServer(page, 'everything')
  form = await openTool(page, 'everything', 'echo')
  await form.getByRole('textbox', { name: 'message string' }).fill('hi')
  await form.getByRole('button', { name: 'Copy as command' }).click()
  await expect(form.getByRole('region', { name: 'Call as command' })).toContainText(
    'No cURL command: everything is not a streamable HTTP server.',
  )

  // Deleting a saved request.
  await chooseServer(page, 'knowledgeSearch')
  await main.getByRole('button', { name: 'Delete VPN search' }).click()
  await expect(main.getByRole('list', { name: 'Saved requests' })).toBeHidden()
})

test('the protocol log reaches the page only while the Workbench shows it, and catches up when opened again', async ({
  page,
  launch,
}) => {
  // Every protocol event frame the page's socket receives.
  let frames = 0
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      if (String(payload).includes('"name":"workbench:protocol"')) frames += 1
    }),
  )
  const { host } = await launch(registry(), { env: demo().env })
  await openWorkbench(page, host.url, 'knowledgeSearch')
  const main = page.getByRole('main', { name: 'Workbench' })
  await main.getByRole('tab', { name: 'Protocol log' }).click()
  await expect(main.getByRole('table', { name: 'Protocol log of knowledgeSearch' })).toBeVisible()

  // A second page shows the log: it sees what the first one is not sent.
  const watcher = await page.context().newPage()
  await openWorkbench(watcher, host.url, 'knowledgeSearch')
  const watched = watcher.getByRole('main', { name: 'Workbench' })
  await watched.getByRole('tab', { name: 'Protocol log' }).click()
  await watched.getByRole('searchbox', { name: 'Filter' }).fill('unseen-phrase-4711')

  // Elsewhere in the console, a search logs traffic this page is not sent.
  await page.keyboard.press('ControlOrMeta+2')
  await expect(page.getByRole('main', { name: 'Search' })).toBeVisible()
  // The host has this page's unsubscription, and has sent what it logged before, once a request
  // sent after it is answered (one socket, in order).
  await invoke(page, 'app:info')
  const before = frames
  await invoke(page, 'search:run', {
    searchId: 'unseen',
    query: 'unseen-phrase-4711',
    selection: { knowledgeSearch: [] },
  })
  const watchedLog = watched.getByRole('table', { name: 'Protocol log of knowledgeSearch' })
  await expect(watchedLog.getByRole('row', { name: /^out tools\/call/ })).toHaveCount(1)
  await watcher.close()
  // Sent to both pages at once: anything this page was sent came before this reply.
  await invoke(page, 'app:info')
  expect(frames).toBe(before)

  // Shown again, the log has that search's call; new traffic arrives live.
  await page.keyboard.press('ControlOrMeta+7')
  const log = main.getByRole('table', { name: 'Protocol log of knowledgeSearch' })
  await main.getByRole('searchbox', { name: 'Filter' }).fill('unseen-phrase-4711')
  await expect(log.getByRole('row', { name: /^out tools\/call/ })).toHaveCount(1)
  await invoke(page, 'search:run', {
    searchId: 'seen',
    query: 'seen-phrase-4712',
    selection: { knowledgeSearch: [] },
  })
  await main.getByRole('searchbox', { name: 'Filter' }).fill('seen-phrase-4712')
  await expect(log.getByRole('row', { name: /^out tools\/call/ })).toHaveCount(1)
  expect(frames).toBeGreaterThan(before)
})

test('the call form and its result outlive a tab or panel switch; the log shows the newest first and only my calls', async ({
  page,
  launch,
}) => {
  const { host } = await launch(registry(), { env: demo().env })
  await openWorkbench(page, host.url, 'everything')
  const main = page.getByRole('main', { name: 'Workbench' })
  const form = await callGetSum(page, '2', '40', '5000')
  const result = form.getByRole('region', { name: 'Result' })
  await expect(result.getByRole('list', { name: 'Content blocks' })).toContainText('42')

  // To another tab and back, to another panel and back: nothing is wiped.
  await main.getByRole('tab', { name: 'Protocol log' }).click()
  await main.getByRole('tab', { name: 'Tools' }).click()
  await expect.soft(form.getByRole('textbox', { name: 'a number' })).toHaveValue('2')
  await expect.soft(form.getByRole('textbox', { name: 'b number' })).toHaveValue('40')
  await expect.soft(form.getByRole('textbox', { name: 'Timeout (ms)' })).toHaveValue('5000')
  await expect.soft(result.getByRole('list', { name: 'Content blocks' })).toContainText('42')
  await page.keyboard.press('ControlOrMeta+2')
  await expect(page.getByRole('main', { name: 'Search' })).toBeVisible()
  await page.keyboard.press('ControlOrMeta+7')
  await expect.soft(form.getByRole('textbox', { name: 'b number' })).toHaveValue('40')
  await expect.soft(result.getByRole('list', { name: 'Content blocks' })).toContainText('42')

  await main.getByRole('tab', { name: 'Protocol log' }).click()
  const log = main.getByRole('table', { name: 'Protocol log of everything' })
  // Newest first: the reply to the call just made heads the list, the handshake is further down.
  await expect.soft(log.getByRole('row').nth(1)).toHaveAccessibleName(/^in response/)
  await expect(log.getByRole('row', { name: /^out initialize/ })).toHaveCount(1)
  await main.getByRole('switch', { name: 'Only my calls' }).click()
  await expect(log.getByRole('row', { name: /^out initialize/ })).toHaveCount(0)
  await expect(log.getByRole('row', { name: /^out tools\/call/ })).toHaveCount(1)
  const from = await log
    .getByRole('row')
    .evaluateAll((rows) => rows.slice(1).map((row) => row.querySelectorAll('td')[5]?.textContent))
  expect(new Set(from)).toEqual(new Set(['workbench']))
  await screenshots(page, 'workbench-log-mine')
})
