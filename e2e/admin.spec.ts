import type { Page } from '@playwright/test'
import { LEGAL_CAPABILITY_TOKEN } from '#demo/keys'
import {
  expect,
  invoke,
  openConfig,
  screenshots,
  test,
  type ConsoleHost,
  type Entry,
} from './console'
import { demoScript, startDemoServer, type DemoServer } from './demo-process'
import { saveDemoProfiles } from './demo-servers'

/**
 * An admin's view: what the Servers and Audit panels say is true. A server waiting for an
 * environment variable says where to set it (no keychain button); an archived source says its
 * backend is offline before any search; a capability token is given for this session in the
 * source's row; discovery the console runs by itself is marked automatic in the audit log.
 */

/** rag-tools-v1 over stdio serving these sources, as discovery reports them. */
const ragTools = (sources: string, extra: Entry = {}): Entry => ({
  transport: 'stdio',
  command: process.execPath,
  args: [demoScript, 'rag-tools-v1', '--stdio', '--sources', sources],
  dialect: 'rag-tools-v1',
  description: `Demo · rag-tools-v1 over stdio (${sources})`,
  ...extra,
})

const card = (page: Page, server: string) => page.getByRole('region', { name: server, exact: true })
const sourceRow = (page: Page, server: string, source: string) =>
  card(page, server)
    .getByRole('table', { name: `Data sources of ${server}` })
    .getByRole('row', { name: source })
/** Opens the console and acts as a demo user (its profile saved and activated at once). */
async function openAs(page: Page, user: string, { host }: ConsoleHost): Promise<void> {
  await page.goto(host.url)
  await saveDemoProfiles(page)
  await invoke(page, 'profiles:activate', { id: user })
}

let vtex: DemoServer | undefined
test.afterEach(async () => {
  await vtex?.stop()
  vtex = undefined
})

const nav = (page: Page, panel: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: panel }).click()

test('a server waiting for an ${env:} variable says where to set it, with no keychain action', async ({
  page,
  launch,
}) => {
  const { host } = await launch({
    envDocs: ragTools('handbook', { env: { DOCS_TOKEN: '${env:RC_E2E_UNSET_TOKEN}' } }),
  })
  await page.goto(host.url)
  const envDocs = card(page, 'envDocs')
  await expect(envDocs.getByText('action required', { exact: true })).toBeVisible()
  await expect(envDocs).toContainText(
    'envDocs needs the environment variable RC_E2E_UNSET_TOKEN, which is not set in the console’s environment.',
  )
  await expect(envDocs).toContainText('then restart the console')
  await expect(envDocs.getByRole('button', { name: /Set its key/ })).toHaveCount(0)
  // It cannot be reached: its sources are not open, just not known yet.
  const all = sourceRow(page, 'envDocs', 'All documents')
  await expect(all.getByText('unknown', { exact: true })).toBeVisible()
  await expect(all.getByText('open', { exact: true })).toHaveCount(0)
  // The whole command line, arguments included, cut to fit with the full text on hover.
  const commandLine = [
    process.execPath,
    demoScript,
    'rag-tools-v1',
    '--stdio',
    '--sources',
    'handbook',
  ]
  const command = envDocs.getByTitle(commandLine.join(' '), { exact: true })
  await expect(command).toHaveText(commandLine.join(' '))
  await screenshots(page, 'admin-env-advice')
})

test('an admin sees the offline archive and gives a capability token for this session only', async ({
  page,
  launch,
}) => {
  // Switched while the first discovery (as the default profile) may still run.
  await openAs(page, 'carol', await launch({ companyDocs: ragTools('handbook,legal,legacy-wiki') }))

  // Before any search: what discovery reported, in the row.
  const archive = sourceRow(page, 'companyDocs', 'Legacy Wiki (archived)')
  await expect(archive).toContainText('"legacy-wiki" is archived; its search backend is offline.')
  await expect(archive.getByText('unavailable', { exact: true })).toBeVisible()
  await expect(sourceRow(page, 'companyDocs', 'Employee Handbook')).toContainText('open')

  const legal = sourceRow(page, 'companyDocs', 'Legal Docs')
  await expect(legal).toContainText('Needs a capability token: give one for this session only.')
  await screenshots(page, 'admin-sources')
  await legal.getByRole('button', { name: 'Give token for Legal Docs (companyDocs)' }).click()
  const dialog = page.getByRole('dialog', { name: 'Set legal for companyDocs' })
  await expect(dialog).toContainText('This session only, never saved')
  await dialog.getByLabel('Value').fill(LEGAL_CAPABILITY_TOKEN)
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  await expect(legal).toContainText('Capability token set for this session only')
  await expect(legal).not.toContainText('Needs a capability token')
  await expect(legal.getByText('open', { exact: true })).toBeVisible()
  await screenshots(page, 'admin-capability-token')

  // The search sends it: the legal source answers instead of refusing.
  const result = await invoke<{
    servers: { ok: boolean; hits: unknown[]; sourceErrors?: unknown[] }[]
  }>(page, 'search:run', {
    searchId: 'admin-legal',
    query: 'master services agreement',
    selection: { companyDocs: ['legal'] },
  })
  expect(result.servers[0]).toMatchObject({ ok: true })
  expect(result.servers[0]?.hits.length).toBeGreaterThan(0)
  expect(result.servers[0]?.sourceErrors ?? []).toEqual([])
  // Names and times only; never the value.
  expect(JSON.stringify(await invoke(page, 'secrets:session-list'))).not.toContain(
    LEGAL_CAPABILITY_TOKEN,
  )

  // Config → Secrets lists it too (it is no ${…} reference), and clears it there.
  await openConfig(page, 'Secrets')
  const group = page
    .getByRole('table', { name: 'Secret references by server' })
    .getByRole('rowgroup', { name: 'companyDocs' })
  const tokenRow = group.getByRole('row', { name: 'session token legal' })
  await expect(tokenRow).toContainText('this session only')
  await expect(tokenRow).toContainText('capability token of source legal')
  await expect(tokenRow).toContainText(/set /)
  await expect(page.getByText(LEGAL_CAPABILITY_TOKEN)).toHaveCount(0)
  await screenshots(page, 'admin-secrets-session-token')
  await tokenRow.getByRole('button', { name: 'Clear session token legal for companyDocs' }).click()
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^Clear/ })
    .click()
  await expect(tokenRow).toHaveCount(0)
  await nav(page, 'Servers')
  await expect(legal).toContainText('Needs a capability token: give one for this session only.')
})

test('discovery the console runs by itself is marked automatic in the audit log', async ({
  page,
  launch,
}) => {
  await openAs(page, 'alice', await launch({ companyDocs: ragTools('handbook') }))
  await expect(sourceRow(page, 'companyDocs', 'Employee Handbook')).toBeVisible()
  await nav(page, 'Audit')
  const log = page.getByRole('table', { name: 'Audit log' })
  const automatic = log.getByRole('row', {
    name: 'discover on companyDocs by alice@example.com: ok (automatic)',
  })
  await expect(automatic.first()).toBeVisible()
  await expect(automatic.first().getByText('automatic', { exact: true })).toBeVisible()
  await screenshots(page, 'admin-audit-automatic')

  await page.getByLabel('Trigger').selectOption('person')
  await expect(page.getByText('No line matches the filters.')).toBeVisible()

  // Opening Search lists the sources for its picker from the discovery that just ran: the server
  // is not asked again (no new audit line), and an automatic discovery says it answered from it.
  const discoverLines = async () =>
    (
      await invoke<{ entries: { automatic?: true }[] }>(page, 'audit:list', {
        operation: 'discover',
      })
    ).entries
  const before = (await discoverLines()).length
  await nav(page, 'Search')
  await expect(page.getByRole('button', { name: /^Sources: 1 servers?/ })).toBeVisible()
  const again = await invoke<{ servers: { server: string; cached?: true }[] }>(
    page,
    'discovery:run',
    { automatic: true },
  )
  expect(again.servers).toEqual([expect.objectContaining({ server: 'companyDocs', cached: true })])
  expect(await discoverLines()).toHaveLength(before)
  expect((await discoverLines()).filter((line) => !line.automatic)).toEqual([])

  await nav(page, 'Servers')
  await page.getByRole('button', { name: 'Rediscover' }).click()
  await nav(page, 'Audit')
  await expect(
    log.getByRole('row', { name: 'discover on companyDocs by alice@example.com: ok', exact: true }),
  ).toHaveCount(1)
})

test('the VTEX demo, which has no ping, stays ready under health probes; Health names its windows', async ({
  page,
  launch,
}) => {
  vtex = await startDemoServer(['vtex', '--port', '0'])
  const { host } = await launch({
    productCatalog: { url: vtex.url, dialect: 'vtex', description: 'Demo · VTEX (no ping)' },
    companyDocs: ragTools('handbook'),
  })
  await page.goto(host.url)
  await expect(card(page, 'productCatalog').getByText('ready', { exact: true })).toBeVisible()
  await nav(page, 'Health')
  const catalog = page.getByRole('region', { name: 'Health of productCatalog' })
  const errors = catalog.getByRole('table', { name: 'Errors by operation of productCatalog' })
  // The first probe (15 s after connecting) gets -32601 for ping and falls back to tools/list:
  // the connect's listing plus the probe's.
  await expect(errors.getByRole('row', { name: 'tools/list' })).toContainText(/^tools\/list\s*2/)
  await expect(errors.getByRole('row', { name: 'ping' })).toHaveCount(0)
  for (const row of await errors.getByRole('row').all()) {
    if ((await row.getByRole('columnheader').count()) === 0) await expect(row).toContainText('none')
  }
  const overview = page.getByRole('table', { name: 'Health of every server' })
  await expect(overview.getByRole('row', { name: 'productCatalog' })).toContainText('ready')
  await expect(overview.getByRole('row', { name: 'productCatalog' })).not.toContainText('degraded')

  // Which window each number covers.
  for (const header of [
    'Calls since start',
    'Error rate over the last 5 min',
    'p95 over the last 5 min',
  ]) {
    await expect(overview.getByRole('columnheader', { name: header })).toBeVisible()
  }
  await expect(
    errors.getByRole('columnheader', { name: 'Errors by code since start' }),
  ).toBeVisible()
  await expect(catalog).toContainText('p50 / p95 / p99, last 5 min')
  await screenshots(page, 'admin-health-vtex')
})
