import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import {
  editor,
  expect,
  httpServer,
  invoke,
  manyServers,
  openConfig,
  recordFrames,
  registryText,
  replaceEditorText,
  screenshots,
  test,
} from './console'

/**
 * The keychain is shared by every spec of a run: a server id of each test's own keeps an entry
 * left by a failed test (or another spec) out of it.
 */
const uniqueId = (): string => `docs-${randomBytes(3).toString('hex')}`

const servers = (docsRag = uniqueId()) => ({
  [docsRag]: httpServer('Docs', { headers: { Authorization: 'Bearer ${keychain:apiKey}' } }),
  localKb: { command: 'node', args: ['kb.js'], env: { KB_TOKEN: '${session:token}' } },
  plain: httpServer('No secrets here'),
})

const row = (page: Page, server: string, kind: string, name: string) =>
  page.getByRole('rowgroup', { name: server }).getByRole('row', { name: `${kind} secret ${name}` })

test.describe('with a keychain', () => {
  test.skip(
    !process.env.RAG_KEYRING_READY,
    'needs a Secret Service: run through `bash scripts/with-keyring.sh` (npm test does)',
  )

  test('the save preview says a new ${keychain:…} has no value yet and sets it there', async ({
    page,
    launch,
  }) => {
    const docsRag = uniqueId()
    const { host } = await launch({ plain: httpServer('No secrets here') })
    await page.goto(host.url)
    await openConfig(page)
    await expect(editor(page)).toContainText('"plain"')
    await replaceEditorText(
      page,
      registryText({
        plain: httpServer('No secrets here'),
        [docsRag]: httpServer('Docs', { headers: { Authorization: 'Bearer ${keychain:newKey}' } }),
      }),
    )
    await page.getByRole('button', { name: 'Save…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Save rag-mcp.json?' })
    const missing = dialog.getByRole('list', { name: 'Keychain secrets without a value' })
    await expect(dialog).toContainText('1 keychain secret without a value yet')
    await expect(dialog).toContainText(`${docsRag} waits in “action required” until it is set`)
    await expect(missing).toContainText(`\${keychain:newKey} of ${docsRag}`)
    await screenshots(page, 'config-save-missing-secret')
    try {
      await missing.getByRole('button', { name: 'Set newKey…' }).click()
      const set = page.getByRole('dialog', { name: `Set newKey for ${docsRag}` })
      await set.getByLabel('Value').fill(`sk-e2e-${randomBytes(12).toString('hex')}`)
      await page.keyboard.press('Enter')
      await expect(set).toBeHidden()
      await expect(missing).toBeHidden()
      await dialog.getByRole('button', { name: 'Save and apply' }).click()
      await expect(dialog).toBeHidden()
    } finally {
      await invoke(page, 'secrets:delete', { server: docsRag, name: 'newKey' })
    }
  })

  test('a keychain secret is set and deleted without its value ever reaching the page', async ({
    page,
    launch,
  }) => {
    const docsRag = uniqueId()
    const frames = recordFrames(page)
    const value = `sk-e2e-${randomBytes(12).toString('hex')}`
    const { host } = await launch(servers(docsRag))
    await page.goto(host.url)
    await openConfig(page, 'Secrets')

    const apiKey = row(page, docsRag, 'keychain', 'apiKey')
    await expect(apiKey).toContainText('missing')
    await expect(apiKey).toContainText('headers.Authorization')
    await expect(page.getByText('No secret references: plain.')).toBeVisible()
    await screenshots(page, 'secrets')

    await apiKey.getByRole('button', { name: `Set apiKey for ${docsRag}` }).click()
    const dialog = page.getByRole('dialog', { name: `Set apiKey for ${docsRag}` })
    const field = dialog.getByLabel('Value')
    await expect(field).toHaveAttribute('type', 'password')
    await expect(field).toBeFocused()
    await page.keyboard.type(value)
    await screenshots(page, 'secrets-set-dialog')
    await page.keyboard.press('Enter')
    await expect(dialog).toBeHidden()
    await expect(apiKey).toContainText('set')
    await expect(
      page.getByRole('status').filter({ hasText: `Stored apiKey for ${docsRag}` }),
    ).toBeVisible()

    // "Only not set" hides what is done.
    const onlyMissing = page.getByRole('switch', { name: 'Only not set' })
    await onlyMissing.click()
    await expect(onlyMissing).toHaveAttribute('aria-checked', 'true')
    await expect(page.getByRole('rowgroup', { name: docsRag })).toHaveCount(0)
    await expect(page.getByRole('rowgroup', { name: 'localKb' })).toBeVisible()
    await onlyMissing.press('Space')
    await expect(apiKey).toBeVisible()

    // Replace keeps it set; Delete asks, then it is missing again.
    await apiKey.getByRole('button', { name: `Delete apiKey for ${docsRag}` }).click()
    const confirm = page.getByRole('dialog', { name: `Delete apiKey for ${docsRag}?` })
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await confirm.getByRole('button', { name: 'Delete secret' }).click()
    await expect(confirm).toBeHidden()
    await expect(apiKey).toContainText('missing')

    expect(frames.length).toBeGreaterThan(5)
    expect(frames.filter((frame) => frame.includes(value))).toEqual([])
    expect(await page.content()).not.toContain(value)
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(value)
  })

  test('a session token is clearly labelled, set and cleared', async ({ page, launch }) => {
    const frames = recordFrames(page)
    const value = `session-${randomBytes(8).toString('hex')}`
    const { host } = await launch(servers())
    await page.goto(host.url)
    await openConfig(page, 'Secrets')

    const token = row(page, 'localKb', 'session', 'token')
    await expect(token).toContainText('this session only')
    await token.getByRole('button', { name: 'Set token for localKb' }).click()
    const dialog = page.getByRole('dialog', { name: 'Set token for localKb' })
    await expect(dialog).toContainText('This session only, never saved')
    await dialog.getByLabel('Value').fill(value)
    await dialog.getByRole('button', { name: 'Set for this session' }).click()
    await expect(token).toContainText('set just now')

    await token.getByRole('button', { name: 'Clear session token token for localKb' }).click()
    await page
      .getByRole('dialog', { name: 'Clear session token token?' })
      .getByRole('button', { name: 'Clear token' })
      .click()
    await expect(token).toContainText('missing')
    expect(frames.filter((frame) => frame.includes(value))).toEqual([])
  })

  test('an empty value is refused in the dialog, naming why', async ({ page, launch }) => {
    const docsRag = uniqueId()
    const { host } = await launch(servers(docsRag))
    await page.goto(host.url)
    await openConfig(page, 'Secrets')
    await row(page, docsRag, 'keychain', 'apiKey')
      .getByRole('button', { name: `Set apiKey for ${docsRag}` })
      .click()
    const dialog = page.getByRole('dialog', { name: `Set apiKey for ${docsRag}` })
    await dialog.getByRole('button', { name: 'Set secret' }).click()
    await expect(dialog.getByLabel('Value')).toHaveAttribute('aria-invalid', 'true')
    await expect(dialog).toContainText('the value is empty')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  })
})

test('without a keychain the status is unknown and the advice is shown', async ({
  page,
  launch,
}) => {
  const docsRag = uniqueId()
  const { host } = await launch(servers(docsRag), {
    env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/rag-console-test-bus' },
  })
  await page.goto(host.url)
  await openConfig(page, 'Secrets')
  const banner = page.getByRole('alert').filter({ hasText: 'The OS keychain cannot be read' })
  await expect(banner).toContainText('Secret Service')
  await expect(row(page, docsRag, 'keychain', 'apiKey')).toContainText('unknown')
  // Session tokens do not need the keychain.
  await expect(row(page, 'localKb', 'session', 'token')).toContainText('missing')
  await screenshots(page, 'secrets-keychain-unavailable')
})

test('twenty servers: filter and group stay readable', async ({ page, launch }) => {
  const { host } = await launch(manyServers(20))
  await page.goto(host.url)
  await openConfig(page, 'Secrets')
  await expect(page.getByRole('rowgroup', { name: 'server18' })).toBeVisible()
  await expect(page.getByText(/^No secret references: server01, server02/)).toBeVisible()
  await screenshots(page, 'secrets-20-servers')
  await page.getByLabel('Filter servers').fill('server1')
  await expect(page.getByRole('rowgroup', { name: 'server12' })).toBeVisible()
  await expect(page.getByRole('rowgroup', { name: 'server03' })).toHaveCount(0)
})
