import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { expect, LATENCY, screenshots, test, type Entry } from './console'
import { becomeCarol } from './demo'
import { startDemoServer, type DemoServer } from './demo-process'
import { root } from './host'

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
/** The same server, approving every sign-in as Carol at once (for the CLI's test opener). */
let approving: DemoServer | undefined
test.beforeAll(async () => {
  ;[oauth, approving] = await Promise.all([
    startDemoServer(['oauth', '--port', '0']),
    startDemoServer(['oauth', '--port', '0', '--approve-as', 'carol@example.com']),
  ])
})
test.afterAll(async () => {
  await Promise.all([oauth?.stop(), approving?.stop()])
})

/** Runs the built CLI on the host's registry, as a person at a terminal beside the app. */
function cli(
  config: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'out/main/cli.js'), '--config', config, ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    )
  })
}

/** Runs a search from the Search panel and waits for the server's row in the latency table. */
async function searchReaches(page: Page, server: string): Promise<void> {
  await nav(page, 'Search').click()
  await page.getByLabel('Query').fill('deployment')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(
    page.getByRole('table', { name: 'Latency by server' }).getByRole('row', { name: server }),
  ).toContainText(LATENCY)
  await expect(
    page.getByRole('listbox', { name: 'Merged hits' }).getByRole('option').first(),
  ).toBeVisible()
}

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
    const { host, file } = await launch({ [server]: wiki() })
    await page.goto(host.url)
    // Carol is a user the rag-tools demo knows; searches run as her.
    await becomeCarol(page)
    const row = signInRow(page, server)

    await expect(row).toContainText('Sign-in required')
    await expect(card(page, server).getByText('sign-in required', { exact: true })).toBeVisible()
    await screenshots(page, 'oauth-sign-in-required')
    await expectNoAxeViolations(page, 'Servers, OAuth sign-in required')
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
    await expectNoAxeViolations(page, 'Servers, signing in')

    await tab.getByLabel('User').fill('carol')
    await tab.getByRole('button', { name: 'Approve' }).click()
    await expect(tab.getByText(`Signed in to ${server}`)).toBeVisible()

    await expect(row).toContainText('Signed in as carol')
    await expect(row).toContainText(/expires in \d+ min/)
    await expect(card(page, server).getByText('ready', { exact: true })).toBeVisible()
    await screenshots(page, 'oauth-signed-in')
    await expectNoAxeViolations(page, 'Servers, signed in')

    await searchReaches(page, server)

    // The sign-in holds beyond this process: a terminal's CLI uses it.
    const tools = await cli(file, ['--json', 'tools', '--server', server])
    expect(tools.code, tools.stderr).toBe(0)
    expect(tools.stdout).toContain('rag_get_raw_results')

    await nav(page, 'Servers').click()
    await row.getByRole('button', { name: `Sign out of ${server}` }).click()
    const confirm = page.getByRole('dialog', { name: `Sign out of ${server}?` })
    await expect(confirm).toContainText('deleted from the keychain')
    await screenshots(page, 'oauth-sign-out-confirm')
    await expectNoAxeViolations(page, 'Servers, the sign-out dialog')
    await confirm.getByRole('button', { name: 'Sign out' }).click()
    await expect(row).toContainText('Sign-in required')
    await expect(row.getByRole('button', { name: `Sign in to ${server}` })).toBeVisible()
  })

  test('a CLI sign-in is used by the running host, and by the host started again', async ({
    page,
    launch,
  }) => {
    const server = uniqueId()
    const entry = { [server]: wiki({ url: approving!.url }) }
    const { host, file } = await launch(entry)
    await page.goto(host.url)
    await becomeCarol(page)
    const row = signInRow(page, server)
    await expect(row).toContainText('Sign-in required')

    // Signed in at a terminal while the app is open.
    const login = await cli(file, ['auth', 'login', '--server', server], {
      RAG_CONSOLE_OAUTH_OPENER: 'fetch',
    })
    expect(login.code, login.stderr).toBe(0)
    expect(login.stdout).toContain(`signed in to ${server} as carol@example.com`)
    await searchReaches(page, server)
    await nav(page, 'Servers').click()
    await expect(row).toContainText('Signed in as carol@example.com')
    await expect(card(page, server).getByText('ready', { exact: true })).toBeVisible()

    // The app closed and started again: still signed in, nobody asked.
    await page.goto('about:blank')
    await host.stop()
    const again = await launch(entry)
    await page.goto(again.host.url)
    await becomeCarol(page)
    await expect(signInRow(page, server)).toContainText('Signed in as carol@example.com')
    await searchReaches(page, server)
    await cli(file, ['auth', 'logout', '--server', server])
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

test('a server tried in the Workbench signs in like a registered one, and its forms open', async ({
  page,
  context,
  launch,
}) => {
  const { host } = await launch({})
  await page.goto(host.url)
  await nav(page, 'Workbench').click()
  const main = page.getByRole('main', { name: 'Workbench' })
  await main.getByRole('button', { name: 'Try a server…' }).click()
  let dialog = page.getByRole('dialog', { name: 'Try a server' })
  await dialog.getByRole('textbox', { name: 'URL' }).fill(oauth!.url)
  await dialog.getByRole('button', { name: 'Connect' }).click()
  await expect(main.getByText(/^try-\d+ is being tried \(http\), not saved$/)).toBeVisible()
  const tried = await main.getByLabel('Server', { exact: true }).inputValue()
  const row = main.getByRole('group', { name: `Sign-in for ${tried}` })
  await expect(row).toContainText('Sign-in required')
  await expect(main).toContainText('use Sign in where it is tried in the Workbench')
  await screenshots(page, 'workbench-tried-sign-in-required')

  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    row.getByRole('button', { name: `Sign in to ${tried}` }).click(),
  ])
  await tab.getByLabel('User').fill('carol')
  await tab.getByRole('button', { name: 'Approve' }).click()
  await expect(tab.getByText(`Signed in to ${tried}`)).toBeVisible()
  await expect(row).toContainText('Signed in as carol')
  await expect(
    page
      .getByRole('navigation', { name: `Tools of ${tried}` })
      .getByRole('button', { name: 'rag_get_raw_results', exact: true }),
  ).toBeVisible()
  await screenshots(page, 'workbench-tried-signed-in')
  await row.getByRole('button', { name: `Sign out of ${tried}` }).click()
  const confirm = page.getByRole('dialog', { name: `Sign out of ${tried}?` })
  await expect(confirm).toContainText('are forgotten')
  await confirm.getByRole('button', { name: 'Sign out' }).click()
  await expect(row).toContainText('Sign-in required')
  await main.getByRole('button', { name: `Close ${tried}` }).click()

  // A tried stdio server that asks for a form while it works: the form opens here.
  await main.getByRole('button', { name: 'Try a server…' }).click()
  dialog = page.getByRole('dialog', { name: 'Try a server' })
  await dialog.getByLabel('Transport').selectOption('stdio')
  await dialog.getByRole('textbox', { name: 'Command' }).fill(process.execPath)
  await dialog
    .getByRole('textbox', { name: 'Arguments, one per line' })
    .fill(join(root, 'src/test/fixtures/pool/elicit-stdio-server.mjs'))
  await dialog.getByRole('button', { name: 'Connect' }).click()
  await page
    .getByRole('dialog', { name: 'Run this command?' })
    .getByRole('button', { name: 'Run and connect' })
    .click()
  const asker = await main.getByLabel('Server', { exact: true }).inputValue()
  await page
    .getByRole('navigation', { name: `Tools of ${asker}` })
    .getByRole('button', { name: 'ask', exact: true })
    .click()
  const form = page.getByRole('region', { name: 'Call ask' })
  await form.getByRole('textbox', { name: 'form string' }).fill('required')
  await form.getByRole('button', { name: 'Call ask' }).click()
  const asks = page.getByRole('dialog', { name: `${asker} asks` })
  await expect(asks.getByText('Please fill in the required form')).toBeVisible()
  await asks.getByRole('textbox', { name: 'name' }).fill('Ada Lovelace')
  await asks.getByRole('button', { name: 'Send' }).click()
  await expect(form.getByRole('list', { name: 'Content blocks' })).toContainText('Ada Lovelace')
  await main.getByRole('button', { name: `Close ${asker}` }).click()
})
