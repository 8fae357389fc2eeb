import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, screenshots, test, type Entry } from './console'
import { root } from './host'

/**
 * A documentation search server from the npm registry (`@voltagent/docs-mcp`, offline over
 * stdio) becomes a search provider from the Workbench, by someone who never read the mapping
 * docs: call its search tool, "Use as search", check the guesses against the hits, save
 * through the save preview, search.
 */
const docs: Entry = {
  command: process.execPath,
  args: [join(root, 'node_modules/@voltagent/docs-mcp/dist/index.js')],
  timeoutMs: 20_000,
}

test('maps a third-party search tool from its reply and searches through it', async ({
  page,
  launch,
}) => {
  const { host, file } = await launch({ voltDocs: docs })
  await page.goto(host.url)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  // No family is detected: the server's card says which tool looks like search.
  const card = page.getByRole('region', { name: 'voltDocs', exact: true })
  await expect(card).toContainText('Looks searchable: search_voltagent_docs(query)')
  await screenshots(page, 'servers-searchable')
  await card
    .getByRole('button', { name: 'Map search_voltagent_docs of voltDocs in the Workbench' })
    .click()
  const main = page.getByRole('main', { name: 'Workbench' })
  await expect(main.getByLabel('Server', { exact: true })).toHaveValue('voltDocs')
  const form = main.getByRole('region', { name: 'Call search_voltagent_docs' })
  await form.getByRole('textbox', { name: 'query string' }).fill('memory adapter')
  await form.getByRole('button', { name: 'Call search_voltagent_docs' }).click()
  await expect(
    form.getByRole('region', { name: 'Result' }).getByText('ok', { exact: true }),
  ).toBeVisible()

  await form.getByRole('button', { name: 'Use as search…' }).click()
  const mapping = form.getByRole('region', { name: 'Use search_voltagent_docs as search' })
  // The hit list and the fields are guessed from the reply.
  await expect(mapping.getByRole('radio', { name: /^results/ })).toBeChecked()
  await expect(mapping.getByRole('combobox', { name: 'Title', exact: true })).toHaveValue('title')
  await expect(mapping.getByRole('combobox', { name: 'Snippet', exact: true })).toHaveValue(
    'excerpt',
  )
  await expect(mapping.getByRole('combobox', { name: 'Link', exact: true })).toHaveValue('filepath')
  await expect(mapping.getByRole('combobox', { name: 'Score', exact: true })).toHaveValue('')
  const hits = mapping.getByRole('listbox', { name: 'Hits through this mapping' })
  await expect(hits.getByRole('option').first()).toContainText(/memory/i)
  await expect(
    mapping.getByRole('heading', { name: /As Search will show them: \d+ hits?/ }),
  ).toBeVisible()
  await screenshots(page, 'workbench-map-search')

  // A choice changes the preview: the section is no source of the hits.
  await mapping.getByRole('combobox', { name: 'Source', exact: true }).selectOption('')
  await expect(mapping.getByRole('combobox', { name: 'Source', exact: true })).toHaveValue('')

  await mapping.getByRole('button', { name: 'Save as search mapping…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save rag-mcp.json?' })
  await expect(dialog.getByRole('region', { name: 'Server changes' })).toContainText('voltDocs')
  await expect(dialog.getByRole('region', { name: 'Line changes' })).toContainText(
    'search_voltagent_docs',
  )
  await screenshots(page, 'workbench-map-save')
  await dialog.getByRole('button', { name: 'Save and apply' }).click()
  await expect(dialog).toBeHidden()
  await expect(
    mapping.getByRole('status').filter({ hasText: 'now searches through search_voltagent_docs' }),
  ).toBeVisible()

  const saved = JSON.parse(readFileSync(file, 'utf8')) as {
    voltDocs: { dialect: { search: Record<string, unknown> } }
  }
  expect(saved.voltDocs.dialect.search).toEqual({
    tool: 'search_voltagent_docs',
    arguments: { query: '{query}' },
    hits: 'results',
    fields: { id: 'filepath', title: 'title', snippet: 'excerpt', uri: 'filepath' },
  })

  // The server is now a search provider.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Search' })
    .click()
  await page.getByLabel('Query').fill('memory')
  await page.keyboard.press('ControlOrMeta+Enter')
  const merged = page.getByRole('listbox', { name: 'Merged hits' })
  await expect(merged.getByRole('option').first()).toBeVisible()
  await expect(merged.getByRole('option').first()).toContainText('voltDocs')
  await expect(
    page.getByRole('table', { name: 'Latency by server' }).getByRole('row', { name: 'voltDocs' }),
  ).toBeVisible()
  await screenshots(page, 'workbench-map-searched')
})
