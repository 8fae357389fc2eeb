import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, screenshots, test, type Entry } from './console'
import { becomeCarol } from './demo'
import { startDemoServer, type DemoServer } from './demo-process'

/**
 * The keychain is shared by every spec of a run: a server id of each test's own keeps tokens or
 * a client registration left by another test out of it.
 */
const uniqueId = (): string => `wiki-${randomBytes(3).toString('hex')}`

const card = (page: Page, server: string) => page.getByRole('region', { name: server, exact: true })
const signInRow = (page: Page, server: string) =>
  card(page, server).getByRole('group', { name: `Sign-in for ${server}` })
const nav = (page: Page, panel: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: panel })

let oauth: DemoServer | undefined
test.beforeAll(async () => {
  oauth = await startDemoServer(['oauth', '--port', '0'])
})
test.afterAll(async () => {
  await oauth?.stop()
})

const wiki = (extra: Entry = {}): Entry => ({
  url: oauth!.url,
  dialect: 'rag-tools-v1',
  description: 'Demo · rag-tools-v1 behind OAuth 2.1',
  ...extra,
})

test.describe('with a keychain', () => {
  test.skip(
    !process.env.RAG_KEYRING_READY,
    'OAuth tokens live in the keychain: run through `bash scripts/with-keyring.sh` (npm test does)',
  )

  test('signs in to an OAuth server through the browser host, searches it and signs out', async ({
    page,
    context,
    launch,
  }) => {
    const server = uniqueId()
    const { host } = await launch({ [server]: wiki() })
    await page.goto(host.url)
    // Carol is a user the rag-tools demo knows; searches run as her.
    await becomeCarol(page)
    const row = signInRow(page, server)

    await expect(row).toContainText('Sign-in required')
    await expect(card(page, server).getByText('sign-in required', { exact: true })).toBeVisible()
    await screenshots(page, 'oauth-sign-in-required')
    await nav(page, 'Health').click()
    await expect(
      page
        .getByRole('table', { name: 'Health of every server' })
        .getByRole('row', { name: server }),
    ).toContainText('sign-in required')
    await nav(page, 'Servers').click()

    // The click opens the tab at once (no popup blocker) and the authorization URL fills it.
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      row.getByRole('button', { name: `Sign in to ${server}` }).click(),
    ])
    await expect(row).toContainText('Signing in…')
    await expect(row.getByRole('link', { name: 'Open sign-in page' })).toHaveAttribute(
      'href',
      /\/authorize\?/,
    )
    await expect(row.getByRole('button', { name: `Cancel signing in to ${server}` })).toBeVisible()
    await screenshots(page, 'oauth-signing-in')

    await tab.getByLabel('User').fill('carol')
    await tab.getByRole('button', { name: 'Approve' }).click()
    await expect(tab.getByText(`Signed in to ${server}`)).toBeVisible()

    await expect(row).toContainText('Signed in as carol')
    await expect(row).toContainText(/expires in \d+ min/)
    await expect(card(page, server).getByText('ready', { exact: true })).toBeVisible()
    await screenshots(page, 'oauth-signed-in')

    await nav(page, 'Search').click()
    await page.getByLabel('Query').fill('deployment')
    await page.keyboard.press('ControlOrMeta+Enter')
    await expect(
      page.getByRole('table', { name: 'Latency by server' }).getByRole('row', { name: server }),
    ).toContainText(/\d+ ms/)
    await expect(
      page.getByRole('listbox', { name: 'Merged hits' }).getByRole('option').first(),
    ).toBeVisible()

    await nav(page, 'Servers').click()
    await row.getByRole('button', { name: `Sign out of ${server}` }).click()
    const confirm = page.getByRole('dialog', { name: `Sign out of ${server}?` })
    await expect(confirm).toContainText('deleted from the keychain')
    await screenshots(page, 'oauth-sign-out-confirm')
    await confirm.getByRole('button', { name: 'Sign out' }).click()
    await expect(row).toContainText('Sign-in required')
    await expect(row.getByRole('button', { name: `Sign in to ${server}` })).toBeVisible()
  })

  test('a cancelled sign-in asks again; one that cannot start says why and closes its empty tab', async ({
    page,
    context,
    launch,
  }) => {
    const server = uniqueId()
    const broken = uniqueId()
    const { host } = await launch({
      [server]: wiki(),
      // Configured for OAuth, but nobody listens there: the sign-in fails before any page.
      [broken]: wiki({ url: 'http://127.0.0.1:9/mcp', oauth: {} }),
    })
    await page.goto(host.url)

    const row = signInRow(page, server)
    await Promise.all([
      context.waitForEvent('page'),
      row.getByRole('button', { name: `Sign in to ${server}` }).click(),
    ])
    await row.getByRole('button', { name: `Cancel signing in to ${server}` }).click()
    await expect(row).toContainText('Sign-in required')
    await expect(row).toContainText('The sign-in was cancelled.')

    const brokenRow = signInRow(page, broken)
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      brokenRow.getByRole('button', { name: `Sign in to ${broken}` }).click(),
    ])
    await expect(brokenRow).toContainText('Sign-in failed')
    await expect(brokenRow).toContainText('Sign in again')
    await expect(brokenRow.getByRole('button', { name: `Sign in to ${broken}` })).toBeVisible()
    await expect.poll(() => tab.isClosed()).toBe(true)
    await screenshots(page, 'oauth-sign-in-failed')
  })
})
