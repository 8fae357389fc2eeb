import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, replaceEditorText, screenshots, test, type Entry } from './console'
import { demoRegistry, useDemoServers } from './demo'
import { root } from './host'

const demo = useDemoServers()

/** `@modelcontextprotocol/server-everything` over stdio: every content type, resources, prompts. */
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')
const everything: Entry = {
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  timeoutMs: 20_000,
}

const registry = (): Record<string, Entry> => ({ ...demoRegistry(demo()), everything })

/** Opens the Workbench (Ctrl/⌘+7) on `server`. */
async function openWorkbench(page: Page, url: string, server: string): Promise<void> {
  await page.goto(url)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await page.keyboard.press('ControlOrMeta+7')
  const main = page.getByRole('main', { name: 'Workbench' })
  await expect(main.getByRole('heading', { name: 'Workbench', level: 1 })).toBeVisible()
  await main.getByLabel('Server').selectOption(server)
}

/** Chooses a tool of the server shown and returns its call form. */
async function openTool(page: Page, server: string, tool: string) {
  await page
    .getByRole('navigation', { name: `Tools of ${server}` })
    .getByRole('button', { name: tool, exact: true })
    .click()
  return page.getByRole('region', { name: `Call ${tool}` })
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
  await screenshots(page, 'workbench-call')

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
  await page
    .getByRole('main', { name: 'Workbench' })
    .getByLabel('Server')
    .selectOption('documentVault')
  form = await openTool(page, 'documentVault', 'get_document')
  await form.getByRole('textbox', { name: 'document_id string' }).fill('no-such-doc')
  await form.getByRole('button', { name: 'Call get_document' }).click()
  await expect(form.getByText('tool error', { exact: true })).toBeVisible()
  await expect(form.getByLabel('Block 1: text')).toContainText(
    'Document not found in this vault: no-such-doc',
  )

  // An array with a minimum of one item (rag-search).
  await page
    .getByRole('main', { name: 'Workbench' })
    .getByLabel('Server')
    .selectOption('knowledgeSearch')
  form = await openTool(page, 'knowledgeSearch', 'rag_search')
  await form.getByRole('textbox', { name: 'search_phrases 1 string' }).fill('vpn setup')
  await form.getByRole('button', { name: 'Call rag_search' }).click()
  await expect(form.getByLabel('Raw result')).toContainText('segments')
})
