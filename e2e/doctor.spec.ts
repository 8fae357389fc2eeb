import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { expectColumnsFit } from './columns'
import { download, expect, httpServer, invoke, screenshots, test, type Entry } from './console'
import { slowServer } from './demo'
import { demoScript } from './demo-process'
import { saveDemoProfiles } from './demo-servers'

/**
 * Doctor from the Servers panel: an admin runs it on a demo server that keeps its contract and
 * on one started with `--break`, reads the report (the broken check first, with its evidence),
 * exports it, and finds the last result on the card after a reload.
 */

/** The rag-tools-v1 demo over stdio, with these faults turned on. */
const ragTools = (breaks: string[] = []): Entry => ({
  transport: 'stdio',
  command: process.execPath,
  args: [
    demoScript,
    'rag-tools-v1',
    '--stdio',
    '--doc-host',
    'http://127.0.0.1:0',
    ...breaks.flatMap((id) => ['--break', id]),
  ],
  dialect: 'rag-tools-v1',
  description: `Demo · rag-tools-v1 over stdio${breaks.length ? ` (broken: ${breaks.join(', ')})` : ''}`,
})

const BROKEN = 'rag-tools-v1.envelope'

/** A to-do server that logs every write it makes (`TODO_LOG`). */
const TODO_SERVER = fileURLToPath(
  new URL('../src/test/fixtures/services/todo-server.mjs', import.meta.url),
)

const card = (page: Page, server: string) => page.getByRole('region', { name: server, exact: true })
const report = (page: Page, server: string) =>
  page.getByRole('dialog', { name: `Doctor: ${server}` })

test('Doctor passes a demo server, finds the one broken check of another, and is remembered', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ companyDocs: ragTools(), brokenDocs: ragTools([BROKEN]) })
  await page.goto(host.url)
  await saveDemoProfiles(page)
  await invoke(page, 'profiles:activate', { id: 'alice' })
  await page.getByRole('button', { name: 'Dismiss notification' }).click()
  for (const server of ['companyDocs', 'brokenDocs']) {
    await expect(card(page, server).getByText('ready', { exact: true })).toBeVisible()
    await expect(card(page, server)).toContainText('Doctornot run')
  }

  // A server that keeps its contract: every check passes, none needs attention.
  await card(page, 'companyDocs').getByRole('button', { name: 'Doctor companyDocs' }).click()
  const passed = report(page, 'companyDocs')
  await expect(passed.getByText('companyDocs keeps its contract')).toBeVisible()
  await expect(passed).toContainText(/all \d+ passed/)
  await expect(passed.getByText(/^(failed|warning)$/)).toHaveCount(0)
  await expect(passed.getByRole('region', { name: 'MCP protocol (every server)' })).toBeVisible()
  await expect(passed.getByRole('region', { name: 'rag-tools-v1 family' })).toBeVisible()
  // Passes are folded; opening them shows each check with its spec section.
  await passed
    .getByText(/checks? passed/)
    .first()
    .click()
  await expect(passed.getByRole('listitem').first()).toBeVisible()
  await expect(passed.getByRole('listitem').first()).toContainText('§')
  await screenshots(page, 'doctor-pass')
  await passed.getByRole('button', { name: 'Close' }).last().click()
  await expect(card(page, 'companyDocs')).toContainText(/Doctorall \d+ passed · \d\d:\d\d today/)

  // The broken variant: exactly that check fails, first, with its evidence open.
  await card(page, 'brokenDocs').getByRole('button', { name: 'Doctor brokenDocs' }).click()
  const broken = report(page, 'brokenDocs')
  const first = broken.getByRole('listitem').first()
  await expect(first).toContainText(BROKEN)
  await expect(first).toContainText('failed')
  await expect(broken.getByText('failed', { exact: true })).toHaveCount(1)
  await expect(first.getByText('Expected', { exact: true })).toBeVisible()
  await first.getByText(/^Request/).click()
  await expect(first.getByLabel('Request', { exact: true })).toContainText('rag_discover_resources')
  await first.getByText(/^Reply/).click()
  await expect(first.getByLabel('Reply', { exact: true })).toBeVisible()
  await screenshots(page, 'doctor-fail')

  const markdown = await download(page, 'Export Markdown')
  expect(markdown.name).toMatch(/^doctor-brokenDocs-\d{8}T\d{6}\.md$/)
  expect(markdown.text).toContain('# Doctor report: brokenDocs')
  expect(markdown.text).toContain(`(\`${BROKEN}\`)`)
  expect(markdown.text.split('\n').find((line) => line.startsWith('| failed'))).toContain(BROKEN)
  const json = await download(page, 'Export JSON')
  const exported = JSON.parse(json.text) as {
    server: string
    checks: { id: string; status: string }[]
  }
  expect(exported.server).toBe('brokenDocs')
  expect(exported.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual([BROKEN])
  await broken.getByRole('button', { name: 'Close' }).last().click()

  // Kept by main: the card shows the last result after a reload and opens the same report.
  await page.reload()
  const last = card(page, 'brokenDocs').getByRole('button', {
    name: /^Doctor report of brokenDocs: 1 failed · \d\d:\d\d today$/,
  })
  await expect(last).toBeVisible()
  await screenshots(page, 'doctor-cards')
  await page.getByRole('button', { name: 'Run Doctor on all servers' }).click()
  await expect(page.getByText('Doctor ran on 2 servers: brokenDocs failed')).toBeVisible()
  await page.setViewportSize({ width: 1024, height: 700 })
  await expectColumnsFit(page, 'Servers with Doctor results')
  await screenshots(page, 'doctor-cards-min')
  await last.click()
  await expect(report(page, 'brokenDocs').getByRole('listitem').first()).toContainText(BROKEN)
  await expectColumnsFit(page, 'the Doctor report')
  await screenshots(page, 'doctor-fail-min')
})

test('Doctor on a server it cannot reach says why on the card and in the report', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ gone: httpServer('Nothing listens here', { timeoutMs: 2000 }) })
  await page.goto(host.url)
  await expect(card(page, 'gone').getByText('down', { exact: true })).toBeVisible()
  await card(page, 'gone').getByRole('button', { name: 'Doctor gone' }).click()
  const dialog = report(page, 'gone')
  await expect(dialog.getByText('Doctor could not check gone')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Export Markdown' })).toBeVisible()
  await screenshots(page, 'doctor-error')
  await dialog.getByRole('button', { name: 'Close' }).last().click()
  await expect(
    card(page, 'gone').getByRole('button', { name: /^Doctor report of gone: could not run · / }),
  ).toBeVisible()
})

test('Run Doctor on all servers shows each card’s result as it arrives, and can be cancelled', async ({
  page,
  launch,
}) => {
  const { host } = await launch({ companyDocs: ragTools(), stuck: slowServer('stuck', 60_000) })
  await page.goto(host.url)
  await saveDemoProfiles(page)
  await invoke(page, 'profiles:activate', { id: 'alice' })
  for (const server of ['companyDocs', 'stuck']) {
    await expect(card(page, server).getByText('ready', { exact: true })).toBeVisible()
  }
  await page.getByRole('button', { name: 'Run Doctor on all servers' }).click()
  // companyDocs is done while the stuck server is still being checked.
  await expect(card(page, 'companyDocs')).toContainText(/Doctorall \d+ passed · \d\d:\d\d today/)
  await expect(card(page, 'stuck')).toContainText('Doctorrunning…')
  await screenshots(page, 'doctor-progress')
  await page.getByRole('button', { name: 'Cancel Doctor' }).click()
  await expect(card(page, 'stuck')).toContainText('Doctornot run')
  await expect(
    page.getByText('Doctor cancelled: 1 server checked; the others keep their last result.'),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Run Doctor on all servers' })).toBeEnabled()

  // One server from its dialog: Cancel there stops it, and nothing is reported.
  await card(page, 'stuck').getByRole('button', { name: 'Doctor stuck' }).click()
  const dialog = report(page, 'stuck')
  await expect(dialog.getByText(/Running Doctor on stuck/)).toBeVisible()
  await screenshots(page, 'doctor-dialog-running')
  await dialog.getByRole('button', { name: 'Cancel Doctor' }).click()
  await expect(dialog.getByText('Doctor has not run on stuck yet.')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Run Doctor' })).toBeEnabled()
  await expect(card(page, 'stuck')).toContainText('Doctornot run')
})

test('Doctor offers the trial call of a tool that may write instead of making it', async ({
  page,
  launch,
}, testInfo) => {
  const log = testInfo.outputPath('todo.log')
  const { host } = await launch({
    todo: {
      transport: 'stdio',
      command: process.execPath,
      args: [TODO_SERVER],
      env: { TODO_LOG: log, TODO_NO_HINTS: '1' },
      description: 'A to-do server: it writes what it is told',
    },
  })
  await page.goto(host.url)
  await expect(card(page, 'todo').getByText('ready', { exact: true })).toBeVisible()
  await card(page, 'todo').getByRole('button', { name: 'Doctor todo' }).click()
  const dialog = report(page, 'todo')
  const offered = dialog.getByRole('region', { name: 'Offered, not made: list_tasks' })
  await expect(offered).toBeVisible()
  await expect(offered).toContainText(
    `rag-console call --server todo --tool list_tasks --args '{"query":"policy"}'`,
  )
  await expect(offered.getByRole('button', { name: /^Copy the command/ })).toBeVisible()
  await expect(dialog.getByRole('listitem').first()).toContainText('was not called')
  await screenshots(page, 'doctor-offered')
  expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('')
})
