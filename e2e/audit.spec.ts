import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { cutCellsWithoutTooltip } from './columns'
import { download, invoke, screenshots } from './console'
import { expect, findHit, saveDemoProfiles, test } from './demo-servers'

const SERVER = 'knowledgeSearch'

const nav = (page: Page, panel: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: panel }).click()

const auditRows = (page: Page) =>
  page
    .getByRole('table', { name: 'Audit log' })
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') })

test('searches and checks land in the audit log, live, filterable, and export without secrets', async ({
  page,
  launch,
  ragSearch: demo,
}) => {
  const { host } = await launch({ [SERVER]: demo.entry }, { env: demo.env })
  await page.goto(host.url)
  await saveDemoProfiles(page)
  await invoke(page, 'profiles:activate', { id: 'carol' })
  await findHit(page, SERVER, 'master services agreement clauses', 'lg-msa-clauses')

  // A check through the Access panel, as bob ("View as" stays on carol).
  await nav(page, 'Access')
  const form = page.getByRole('form', { name: 'Check access' })
  await form.getByLabel('Check as').selectOption('bob')
  await expect(form.getByLabel('Check as')).toHaveValue('bob')
  await form.getByLabel('Server').selectOption(SERVER)
  await form.getByLabel('Segment id').fill('hb-pto-policy#0')
  await form.getByLabel('Segment id').press('Enter')
  await expect(page.getByRole('region', { name: 'Verdict' })).toContainText('bob@example.com')

  await nav(page, 'Audit')
  const rows = auditRows(page)
  await expect(
    page.getByRole('row', { name: `search on ${SERVER} by carol@example.com: ok` }),
  ).toBeVisible()
  await expect(
    page.getByRole('row', { name: `verify on ${SERVER} by bob@example.com: ok` }),
  ).toBeVisible()
  // The check itself, with its verdict.
  await expect(
    page.getByRole('row', { name: `access on ${SERVER} by bob@example.com: ok` }),
  ).toContainText('verdict ok')
  const before = await rows.count()

  // Live: a search made while the panel is open appears without touching it.
  await invoke(page, 'search:run', {
    searchId: 'live',
    query: 'paid time off',
    selection: { [SERVER]: [] },
  })
  await expect(rows).toHaveCount(before + 1)
  await expect(rows.first()).toHaveAccessibleName(`search on ${SERVER} by carol@example.com: ok`)
  await screenshots(page, 'audit')

  // Filters narrow the table (and the export).
  await page.getByLabel('Operation').selectOption('verify')
  await expect(rows).toHaveCount(1)
  await expect(page.getByText('1 line matches the filters')).toBeVisible()
  await page.getByLabel('Operation').selectOption('')
  await page.getByLabel('User').selectOption('carol@example.com')
  // All but bob's two lines (the verify call and the check).
  await expect(rows).toHaveCount(before - 1)
  await page.getByLabel('Outcome').selectOption('error')
  await expect(page.getByText('No line matches the filters.')).toBeVisible()
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(rows).toHaveCount(before + 1)

  const jsonl = await download(page, 'Export JSONL')
  expect(jsonl.name).toMatch(/^rag-console-audit-.*\.jsonl$/)
  const lines = jsonl.text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  expect(lines).toHaveLength(before + 1)
  expect(lines).toContainEqual(
    expect.objectContaining({
      operation: 'verify',
      user: 'bob@example.com',
      server: SERVER,
      outcome: 'ok',
    }),
  )
  expect(lines).toContainEqual(
    expect.objectContaining({ operation: 'access', user: 'bob@example.com', verdict: 'ok' }),
  )
  expect(jsonl.text).not.toContain(demo.key)

  await page.getByLabel('Operation').selectOption('search')
  await expect(rows).toHaveCount(before - 1)
  const csv = await download(page, 'Export CSV')
  expect(csv.name).toMatch(/\.csv$/)
  const [header, ...records] = csv.text.trim().split('\n')
  expect(header).toBe(
    'at,user,server,operation,tool,sources,outcome,errorCode,latencyMs,resultCount,verdict,automatic,expectedError',
  )
  expect(records).toHaveLength(before - 1)
  expect(records.every((record) => record.includes(',search,'))).toBe(true)
  expect(csv.text).not.toContain(demo.key)
  await screenshots(page, 'audit-filtered')
})

test('many lines scroll in a virtualized table', async ({ page, launch, ragSearch: demo }) => {
  const { host } = await launch({ [SERVER]: demo.entry }, { env: demo.env })
  await page.goto(host.url)
  const searches = Array.from({ length: 60 }, (_, i) =>
    invoke(page, 'search:run', {
      searchId: `many-${i}`,
      query: `policy ${i}`,
      selection: { [SERVER]: [] },
    }),
  )
  await Promise.all(searches)
  await nav(page, 'Audit')
  const table = page.getByRole('table', { name: 'Audit log' })
  await expect(table).toHaveAttribute('aria-rowcount', '61')
  // Only the rows in view (and a margin) are in the page.
  const rendered = await table.getByRole('row').count()
  expect(rendered).toBeLessThan(61)
  await page.getByRole('group', { name: 'Audit log, scrollable' }).evaluate((box) => {
    box.scrollTop = box.scrollHeight
  })
  await expect(table.locator('tr[aria-rowindex="61"]')).toBeVisible()
})

test('unreadable lines in the audit file are skipped and counted, the rest still shows', async ({
  page,
  launch,
}) => {
  const { host } = await launch({})
  await page.goto(host.url)
  const { dataDir } = await invoke<{ dataDir: string }>(page, 'app:info')
  const line = (server: string): string =>
    JSON.stringify({
      at: new Date().toISOString(),
      user: 'carol@example.com',
      server,
      operation: 'search',
      outcome: 'ok',
      latencyMs: 7,
    })
  mkdirSync(join(dataDir, 'audit'), { recursive: true })
  // A write cut short by a crash, then lines appended after it.
  writeFileSync(
    join(dataDir, 'audit', 'audit.jsonl'),
    `${line('before')}\n{"at":"2026-11-2\n${line('after')}\nnot an audit line\n`,
  )
  await nav(page, 'Audit')
  await expect(page.getByRole('alert')).toContainText('Skipped 2 unreadable lines')
  await expect(auditRows(page)).toHaveCount(2)
  await expect(page.getByRole('row', { name: /^search on after by/ })).toBeVisible()
  await screenshots(page, 'audit-skipped')
})

test('at 1024 px every cut cell of the audit table has its whole text as a tooltip', async ({
  page,
  launch,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 })
  const { host } = await launch({})
  await page.goto(host.url)
  const { dataDir } = await invoke<{ dataDir: string }>(page, 'app:info')
  const entry = {
    at: new Date().toISOString(),
    user: 'a.very.long.user.name.for.the.audit@example-corporation.com',
    server: 'engineeringKnowledgeBaseProduction',
    operation: 'synthesize',
    tool: 'rag_get_synthesized_results_with_citations_and_scores',
    sources: ['engineering-handbook', 'incident-runbooks', 'architecture-decisions'],
    outcome: 'error',
    errorCode: 'unauthorized',
    latencyMs: 1234,
  }
  mkdirSync(join(dataDir, 'audit'), { recursive: true })
  writeFileSync(join(dataDir, 'audit', 'audit.jsonl'), `${JSON.stringify(entry)}\n`)
  await nav(page, 'Audit')
  const row = page.getByRole('row', { name: /^synthesize on engineeringKnowledgeBaseProduction/ })
  await expect(row).toBeVisible()
  const operation = row.getByRole('cell').filter({ hasText: entry.tool })
  await expect(operation).toHaveAttribute(
    'title',
    `synthesize · ${entry.tool} (${entry.sources.join(', ')})`,
  )
  expect(await cutCellsWithoutTooltip(page, 'Audit log')).toEqual([])
  await screenshots(page, 'audit-1024-cut-cells')
})
