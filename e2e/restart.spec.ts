import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, registryText, screenshots, test, type Entry } from './console'
import { demoScript, startRagSearch, type DemoServer } from './demo-process'
import { launchHost, type RunningHost } from './host'

/**
 * The restart matrix: what a person sets in the console survives the browser host being killed
 * (SIGKILL, no chance to save anything on the way out) and started again on the same data
 * folder; what lasts only for the session says so where it is entered, and is gone after.
 */

const KEY = `restart-key-${randomBytes(12).toString('hex')}`

/** rag-tools-v1 over stdio, its sources named (one of them needs a capability token). */
const companyDocs: Entry = {
  transport: 'stdio',
  command: process.execPath,
  args: [demoScript, 'rag-tools-v1', '--stdio'],
  dialect: 'rag-tools-v1',
  dataSources: [
    { id: 'handbook', name: 'Employee Handbook', authMode: 'username' },
    { id: 'legal', name: 'Legal Docs', authMode: 'capability', defaultSelected: false },
    { id: 'sales', name: 'Sales Playbooks', authMode: 'username' },
  ],
}

const nav = (page: Page, panel: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: panel }).click()
const card = (page: Page, server: string) => page.getByRole('region', { name: server, exact: true })
const sourceSwitch = (page: Page, source: string) =>
  card(page, 'companyDocs')
    .getByRole('table', { name: 'Data sources of companyDocs' })
    .getByRole('switch', { name: `Search ${source}` })
const workbench = (page: Page) => page.getByRole('main', { name: 'Workbench' })
const evaluation = (page: Page) => page.getByRole('main', { name: 'Evaluation' })
const metricsForm = (page: Page) => page.getByRole('form', { name: 'Prometheus metrics' })

let rs: DemoServer | undefined
test.afterAll(async () => {
  await rs?.stop()
})

test('what a person sets survives a kill -9 of the host; what is for this session says so', async ({
  page,
}) => {
  test.setTimeout(300_000)
  rs = await startRagSearch(KEY)
  const dir = mkdtempSync(join(tmpdir(), 'rc-restart-'))
  const file = join(dir, 'rag-mcp.json')
  writeFileSync(
    file,
    registryText({
      knowledgeSearch: {
        url: rs.url,
        headers: { Authorization: 'Bearer ${env:RS_KEY}' },
        dialect: 'rag-search',
      },
      companyDocs,
    }),
  )
  const start = (): Promise<RunningHost> =>
    launchHost({
      config: file,
      dataDir: join(dir, 'data'),
      env: { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), RS_KEY: KEY },
    })
  let host = await start()
  await page.goto(host.url)

  // A profile, made active.
  await page.getByRole('button', { name: 'Manage profiles' }).click()
  const profiles = page.getByRole('dialog', { name: 'Acting-user profiles' })
  await profiles.getByRole('button', { name: 'New profile' }).click()
  await profiles.getByLabel('Name').fill('Carol legal')
  await profiles.getByLabel('User id').fill('carol@example.com')
  await profiles.getByLabel('Session tags').fill('department:legal, role:admin')
  await profiles.getByLabel('Groups').fill('users, legal, admin')
  await profiles.getByRole('button', { name: 'Create profile' }).click()
  await profiles.getByRole('button', { name: 'View as this profile' }).click()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('combobox', { name: 'View as' })).toHaveValue('carol-legal')

  // Source toggles.
  await nav(page, 'Servers')
  await sourceSwitch(page, 'Sales Playbooks').click()
  await sourceSwitch(page, 'Legal Docs').click()
  await expect(sourceSwitch(page, 'Sales Playbooks')).toHaveAttribute('aria-checked', 'false')
  await expect(sourceSwitch(page, 'Legal Docs')).toHaveAttribute('aria-checked', 'true')

  // A capability token: for this session only, and the dialog says so.
  const giveToken = card(page, 'companyDocs').getByRole('button', {
    name: /^Give token for/,
  })
  await giveToken.click()
  const token = page.getByRole('dialog', { name: 'Set legal for companyDocs' })
  await expect(token).toContainText('This session only, never saved')
  await token.getByLabel('Value').fill(`cap-${randomBytes(8).toString('hex')}`)
  await token.getByRole('button', { name: 'Set for this session' }).click()
  await expect(card(page, 'companyDocs')).toContainText(
    'Capability token set for this session only (kept in memory).',
  )

  // The metrics switch, on any free port.
  await nav(page, 'Health')
  await metricsForm(page).getByRole('textbox', { name: 'Port on 127.0.0.1' }).fill('0')
  await metricsForm(page).getByRole('switch', { name: 'Serve /metrics' }).click()
  await expect(metricsForm(page).getByText('Serving at')).toBeVisible()

  // A golden set, and a run of it.
  await nav(page, 'Evaluation')
  await evaluation(page).getByRole('button', { name: 'New set' }).click()
  await page.getByRole('dialog', { name: 'New golden set' }).getByLabel('Name').fill('Restart set')
  await page.keyboard.press('Enter')
  const editor = evaluation(page).getByRole('region', { name: 'Set Restart set' })
  await editor.getByRole('button', { name: 'Add query' }).click()
  await editor
    .getByRole('group', { name: 'Query q1' })
    .getByLabel('Query', { exact: true })
    .fill('vpn setup')
  await editor.getByRole('button', { name: 'Save set' }).click()
  await expect(editor.getByRole('button', { name: 'Save set' })).toBeDisabled()
  await evaluation(page).getByRole('tab', { name: /^Runs/ }).click()
  await evaluation(page)
    .getByRole('form', { name: 'Run a set' })
    .getByRole('button', { name: 'Run Restart set' })
    .click()
  const runs = evaluation(page).getByRole('table', { name: 'Run history' })
  await expect(runs.getByRole('row').nth(1)).toContainText('done')
  const runRow = (await runs.getByRole('row').nth(1).textContent())!

  // A saved Workbench request, and a server tried by hand (for this session only).
  await nav(page, 'Workbench')
  await workbench(page).getByLabel('Server', { exact: true }).selectOption('knowledgeSearch')
  await page
    .getByRole('navigation', { name: 'Tools of knowledgeSearch' })
    .getByRole('button', { name: 'rag_search', exact: true })
    .click()
  const form = page.getByRole('region', { name: 'Call rag_search' })
  await form.getByRole('textbox', { name: 'search_phrases 1 string' }).fill('vpn setup')
  await form.getByRole('button', { name: 'Save request' }).click()
  const save = page.getByRole('dialog', { name: 'Save request' })
  await save.getByRole('textbox', { name: 'Name' }).fill('Restart request')
  await save.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Saved "Restart request" for knowledgeSearch.')).toBeVisible()
  await workbench(page).getByRole('button', { name: 'Try a server…' }).click()
  const trying = page.getByRole('dialog', { name: 'Try a server' })
  await expect(trying).toContainText('Connects for this session only')
  await trying.getByRole('textbox', { name: 'URL' }).fill(rs.url)
  await trying.getByRole('button', { name: 'Connect' }).click()
  await expect(
    workbench(page).getByText(/^try-\d+ is being tried \(http\), not saved$/),
  ).toBeVisible()

  // Killed: nothing gets a chance to be saved on the way out.
  await page.goto('about:blank')
  host.process.kill('SIGKILL')
  await new Promise((resolve) => host.process.once('exit', resolve))
  host = await start()
  try {
    await page.goto(host.url)
    await expect(page.getByRole('combobox', { name: 'View as' })).toHaveValue('carol-legal')
    await expect(page.getByRole('banner')).toContainText('carol@example.com')

    await nav(page, 'Servers')
    await expect(sourceSwitch(page, 'Sales Playbooks')).toHaveAttribute('aria-checked', 'false')
    await expect(sourceSwitch(page, 'Legal Docs')).toHaveAttribute('aria-checked', 'true')
    // The capability token was for that session.
    await expect(giveToken).toBeVisible()

    await nav(page, 'Health')
    await expect(metricsForm(page).getByRole('switch', { name: 'Serve /metrics' })).toHaveAttribute(
      'aria-checked',
      'true',
    )
    await expect(metricsForm(page).getByText('Serving at')).toBeVisible()

    await nav(page, 'Evaluation')
    await expect(evaluation(page).getByRole('table', { name: 'Golden sets' })).toContainText(
      'Restart set',
    )
    await evaluation(page).getByRole('tab', { name: /^Runs/ }).click()
    await expect(
      evaluation(page).getByRole('table', { name: 'Run history' }).getByRole('row').nth(1),
    ).toHaveText(runRow)

    await nav(page, 'Workbench')
    await workbench(page).getByLabel('Server', { exact: true }).selectOption('knowledgeSearch')
    await expect(workbench(page).getByRole('list', { name: 'Saved requests' })).toContainText(
      'Restart request',
    )
    // The server tried by hand was for that session.
    await expect(workbench(page).getByText(/is being tried/)).toHaveCount(0)
    await screenshots(page, 'restart-after')
  } finally {
    await page.goto('about:blank')
    await host.stop()
  }
})
