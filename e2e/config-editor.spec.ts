import { readFileSync, writeFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import {
  editor,
  expect,
  httpServer,
  invoke,
  openConfig,
  registry,
  registryText,
  replaceEditorText,
  screenshots,
  test,
} from './console'

const twoServers = () => ({
  alpha: httpServer('Alpha docs'),
  beta: httpServer('Beta wiki', { transport: 'sse' }),
})

type Launch = Parameters<Parameters<typeof test>[2]>[0]['launch']

/** Starts a host on `alpha` and `beta` and opens the editor once it shows the file. */
async function openEditor(page: Page, launch: Launch) {
  const started = await launch(twoServers())
  await page.goto(started.host.url)
  await openConfig(page)
  await expect(editor(page)).toContainText('"alpha"')
  return started
}

test('an invalid edit is marked inline and cannot be saved', async ({ page, launch }) => {
  await openEditor(page, launch)

  await replaceEditorText(
    page,
    registryText({ ...twoServers(), alpha: httpServer('Alpha docs', { transport: 'htp' }) }),
  )
  // Inline: the underlined token and the problem with its line and column.
  await expect(page.locator('.cm-lintRange-error').first()).toBeVisible()
  const problems = page.getByRole('region', { name: 'Problems' })
  await expect(problems).toContainText(/alpha\.transport: .*\(line 5, col \d+\)/)
  await expect(page.getByRole('toolbar', { name: 'Config file' })).toContainText('1 error')
  await screenshots(page, 'config-invalid-edit')

  await page.getByRole('button', { name: 'Save…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save rag-mcp.json?' })
  await expect(dialog).toContainText('Cannot save: 1 error')
  await expect(dialog.getByRole('button', { name: 'Save and apply' })).toBeDisabled()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

test('an invalid file on disk shows the banner while the last good registry runs', async ({
  page,
  launch,
}) => {
  const { file } = await openEditor(page, launch)

  writeFileSync(
    file,
    '{\n  "alpha": { "url": "http://127.0.0.1:9/mcp" },\n  "beta": { "url": 42 }\n}\n',
  )
  const banner = page.getByRole('alert').filter({ hasText: 'rag-mcp.json on disk is invalid' })
  await expect(banner).toContainText('the last good config is still running')
  await expect(banner).toContainText('beta.url')
  // The clean editor loaded the broken file and marks the problem where it is.
  await expect(editor(page)).toContainText('"url": 42')
  await expect(page.getByRole('region', { name: 'Problems' })).toContainText('(line 3, col')

  const running = await registry(page)
  expect(running.servers.map((s) => s.id)).toEqual(['alpha', 'beta'])
  expect(running.invalid).toBeTruthy()
  await screenshots(page, 'config-invalid-on-disk')

  // Elsewhere in the app the banner stays and leads back here.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Servers' })
    .click()
  await banner.getByRole('button', { name: 'Open Config' }).click()
  await expect(page.getByRole('main', { name: 'Config' })).toBeVisible()

  writeFileSync(file, registryText(twoServers()))
  await expect(banner).toBeHidden()
})

test('a valid edit adds a server and leaves the others untouched', async ({ page, launch }) => {
  const { host, file } = await launch(twoServers())
  await page.goto(host.url)
  const before = await registry(page)
  await openConfig(page)
  await expect(editor(page)).toContainText('"alpha"')

  await replaceEditorText(page, registryText({ ...twoServers(), gamma: httpServer('Gamma') }))
  const pending = page.getByRole('region', { name: 'Pending changes' })
  await expect(pending).toContainText('Adds 1')
  await expect(pending).toContainText('gamma')

  await page.getByRole('button', { name: 'Save…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save rag-mcp.json?' })
  const changes = dialog.getByRole('region', { name: 'Server changes' })
  await expect(changes).toContainText('Adds 1gamma')
  await expect(changes).toContainText('Unchanged 2alpha, beta — keep their connections')
  await expect(changes).not.toContainText('Changes')
  await expect(dialog.getByRole('region', { name: 'Line diff of the save' })).toContainText('+4')
  await screenshots(page, 'config-save-preview')

  await dialog.getByRole('button', { name: 'Save and apply' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('status').filter({ hasText: 'added gamma' })).toBeVisible()
  await expect(page.getByRole('toolbar', { name: 'Config file' })).toContainText('saved')

  const after = await registry(page)
  expect(after.servers.map((s) => s.id)).toEqual(['alpha', 'beta', 'gamma'])
  expect(after.hashes.alpha).toBe(before.hashes.alpha)
  expect(after.hashes.beta).toBe(before.hashes.beta)
  expect(readFileSync(file, 'utf8')).toContain('"gamma"')
})

test('a save over a file changed behind the editor shows both texts', async ({ page, launch }) => {
  const { file } = await openEditor(page, launch)
  await replaceEditorText(page, registryText({ ...twoServers(), mine: httpServer('Mine') }))

  writeFileSync(file, registryText({ ...twoServers(), theirs: httpServer('Theirs') }))
  await page.getByRole('button', { name: 'Save…' }).click()
  await page
    .getByRole('dialog', { name: 'Save rag-mcp.json?' })
    .getByRole('button', { name: 'Save and apply' })
    .click()

  const conflict = page.getByRole('dialog', { name: 'rag-mcp.json changed on disk' })
  await expect(conflict).toContainText('nothing was saved')
  const columns = conflict.getByRole('table')
  await expect(columns).toContainText(`On disk: ${file}`)
  await expect(columns).toContainText('Your version')
  await expect(columns).toContainText('"theirs"')
  await expect(columns).toContainText('"mine"')
  expect(readFileSync(file, 'utf8')).not.toContain('"mine"')
  await screenshots(page, 'config-conflict')

  await conflict.getByRole('button', { name: 'Keep mine and save' }).click()
  await expect(conflict).toBeHidden()
  await expect.poll(() => readFileSync(file, 'utf8')).toContain('"mine"')
  expect(readFileSync(file, 'utf8')).not.toContain('"theirs"')
  await expect.poll(async () => (await registry(page)).servers.map((s) => s.id)).toContain('mine')
})

test('the first save of the demo registry previews only the lines it changes', async ({
  page,
  launchEmbedded,
}) => {
  const host = await launchEmbedded()
  await page.goto(host.url)
  await openConfig(page)
  await expect(editor(page)).toContainText('"knowledgeSearch"')
  const { text } = await invoke<{ text: string }>(page, 'config:read')
  await replaceEditorText(page, text.replace('"timeoutMs": 10000', '"timeoutMs": 12000'))

  await page.getByRole('button', { name: 'Save…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save rag-mcp.json?' })
  await expect(dialog).toContainText(`Creates ${host.dataDir}/config/overrides/rag-mcp.json`)
  const diff = dialog.getByRole('region', { name: 'Line diff of the save' })
  await expect(diff).toContainText('+1 −1 lines')
  await expect(diff).toContainText('"timeoutMs": 12000')
  await screenshots(page, 'config-first-save-preview')
})

test('while the file changed on disk the save preview diffs against the disk', async ({
  page,
  launch,
}) => {
  const { file } = await openEditor(page, launch)
  await replaceEditorText(page, registryText({ ...twoServers(), mine: httpServer('Mine') }))
  writeFileSync(file, registryText({ ...twoServers(), theirs: httpServer('Theirs') }))
  await expect(page.getByText('rag-mcp.json changed on disk while you were editing')).toBeVisible()

  await page.getByRole('button', { name: 'Save…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save rag-mcp.json?' })
  await expect(dialog).toContainText('changed on disk since you opened it')
  const diff = dialog.getByRole('region', { name: 'Line diff of the save' })
  // Saving would replace their server with mine: both show, theirs as removed.
  await expect(diff.locator('.text-diff__del')).toContainText(['"theirs"'])
  await expect(diff.locator('.text-diff__add')).toContainText(['"mine"'])
  await screenshots(page, 'config-save-preview-disk-ahead')
})

test('edits made in another editor show up live', async ({ page, launch }) => {
  const { file } = await openEditor(page, launch)

  // Clean editor: the new text is loaded as it lands.
  writeFileSync(file, registryText({ ...twoServers(), omega: httpServer('Omega') }))
  await expect(editor(page)).toContainText('"omega"')
  await expect(
    page.getByRole('status').filter({ hasText: 'changed on disk and was applied: added omega' }),
  ).toBeVisible()

  // With unsaved edits: they are kept, and the user can compare and choose.
  await replaceEditorText(page, registryText({ ...twoServers(), draft: httpServer('Draft') }))
  writeFileSync(file, registryText({ ...twoServers(), zeta: httpServer('Zeta') }))
  const notice = page
    .getByRole('alert')
    .filter({ hasText: 'changed on disk while you were editing' })
  await expect(notice).toBeVisible()
  await expect(editor(page)).toContainText('"draft"')
  await screenshots(page, 'config-external-edit')

  await notice.getByRole('button', { name: 'Compare…' }).click()
  const compare = page.getByRole('dialog', { name: 'Compare with the file on disk' })
  await expect(compare.getByRole('table')).toContainText('"zeta"')
  await compare.getByRole('button', { name: "Take the disk's version" }).click()
  await expect(editor(page)).toContainText('"zeta"')
  await expect(editor(page)).not.toContainText('"draft"')
  await expect(page.getByRole('toolbar', { name: 'Config file' })).toContainText('saved')
})

test('the reload history lists saves and invalid reloads with their details', async ({
  page,
  launch,
}) => {
  const { host, file } = await launch(twoServers())
  await page.goto(host.url)
  writeFileSync(file, '{ "alpha": ')
  await expect(page.getByRole('alert').filter({ hasText: 'on disk is invalid' })).toBeVisible()
  writeFileSync(file, registryText({ ...twoServers(), gamma: httpServer('Gamma') }))
  await expect(page.getByRole('alert').filter({ hasText: 'on disk is invalid' })).toBeHidden()

  await openConfig(page, 'Reload history')
  const history = page.getByRole('list', { name: 'Reload history' })
  const entries = history.getByRole('listitem')
  await expect(entries).toHaveCount(3)
  await expect(entries.nth(0)).toContainText('file changed')
  await expect(entries.nth(0)).toContainText('1 added')
  await expect(entries.nth(1)).toContainText('invalid')
  await expect(entries.nth(2)).toContainText('startup')

  await entries.nth(1).getByText('invalid').click()
  await expect(entries.nth(1)).toContainText('(line 1, col')
  await screenshots(page, 'config-history')
})

test('the draft survives switching tabs and leaving asks first', async ({ page, launch }) => {
  await openEditor(page, launch)
  await replaceEditorText(page, registryText({ ...twoServers(), kept: httpServer('Kept') }))
  await page.getByRole('tab', { name: /^Reload history/ }).click()
  await page.getByRole('tab', { name: /^rag-mcp\.json/ }).click()
  await expect(editor(page)).toContainText('"kept"')

  await page.keyboard.press('ControlOrMeta+1')
  const guard = page.getByRole('dialog', { name: 'Discard unsaved changes?' })
  await expect(guard).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(guard).toBeHidden()
  await expect(editor(page)).toContainText('"kept"')

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Servers' })
    .click()
  await guard.getByRole('button', { name: 'Discard and open Servers' }).click()
  await expect(page.getByRole('main', { name: 'Servers' })).toBeVisible()
})

test('completion offers the fields and values of the schema while typing', async ({
  page,
  launch,
}) => {
  await openEditor(page, launch)
  await replaceEditorText(page, '{\n  "alpha": {\n    \n  }\n}\n')
  await page.keyboard.press('ControlOrMeta+Home')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('End')

  await page.keyboard.type('"tr')
  const completions = page.getByRole('listbox', { name: 'Completions' })
  await expect(completions.getByRole('option', { name: /^transport/ })).toBeVisible()
  await screenshots(page, 'config-completion')
  // Picked with the mouse: Enter within 75 ms of the list opening stays a newline, by design.
  await completions.getByRole('option', { name: /^transport/ }).click()
  await page.keyboard.type('st')
  await completions.getByRole('option', { name: /^stdio/ }).click()
  await expect(editor(page)).toContainText('"transport": "stdio"')
  await expect(page.getByRole('region', { name: 'Problems' })).toContainText(
    'transport stdio needs "command"',
  )
})

test('Ctrl+S opens the preview from the editor, Enter saves, focus comes back', async ({
  page,
  launch,
}) => {
  const { file } = await openEditor(page, launch)
  await replaceEditorText(page, registryText({ ...twoServers(), delta: httpServer('Delta') }))
  await page.keyboard.press('ControlOrMeta+s')
  const dialog = page.getByRole('dialog', { name: 'Save rag-mcp.json?' })
  await expect(dialog.getByRole('button', { name: 'Save and apply' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  await expect.poll(() => readFileSync(file, 'utf8')).toContain('"delta"')
  await expect(editor(page)).toBeFocused()
})

test('a saved timeoutMs change shows the field, old and new value in the preview and history', async ({
  page,
  launch,
}) => {
  await openEditor(page, launch)
  const servers = twoServers()
  await replaceEditorText(
    page,
    registryText({ ...servers, alpha: { ...servers.alpha, timeoutMs: 60000 } }),
  )
  await page.getByRole('button', { name: 'Save…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save rag-mcp.json?' })
  const fields = dialog.getByRole('list', { name: 'Fields of alpha that change' })
  await expect(fields).toHaveText('timeoutMs 15000 → 60000')
  await dialog.getByRole('button', { name: 'Save and apply' }).click()
  await expect(dialog).toBeHidden()

  await page.getByRole('tab', { name: /^Reload history/ }).click()
  const newest = page.getByRole('list', { name: 'Reload history' }).getByRole('listitem').first()
  await expect(newest).toContainText('saved in the app')
  await newest.getByText('saved in the app').click()
  await expect(newest.getByRole('list', { name: 'Fields of alpha that change' })).toHaveText(
    'timeoutMs 15000 → 60000',
  )
  await screenshots(page, 'config-history-fields')
})
