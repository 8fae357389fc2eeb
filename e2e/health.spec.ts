import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import {
  expect,
  invoke,
  screenshots,
  test,
  type ConsoleHost,
  type Entry,
  type LaunchOptions,
} from './console'
import { demoScript, startRagSearch, type DemoServer } from './demo-process'

/** The demo rag-search server takes its key from the host's environment here (no keychain). */
const KEY_VAR = 'RAG_E2E_SEARCH_KEY'

const ragSearch = (url: string): Entry => ({
  url,
  dialect: 'rag-search',
  description: 'Demo · rag-search over streamable HTTP',
  headers: { Authorization: `Bearer \${env:${KEY_VAR}}` },
  dataSources: [
    { id: 'handbook', name: 'Employee Handbook' },
    { id: 'it-kb', name: 'IT Knowledge Base' },
  ],
})

const stdioDocs: Entry = {
  transport: 'stdio',
  command: process.execPath,
  args: [demoScript, 'rag-tools-v1', '--stdio'],
  dialect: 'rag-tools-v1',
  description: 'Demo · rag-tools-v1 over stdio',
}

interface SearchReply {
  servers: { server: string; ok: boolean; count: number; error?: { message: string } }[]
  hits: unknown[]
}

const search = (page: Page, query: string): Promise<SearchReply> =>
  invoke<SearchReply>(page, 'search:run', {
    searchId: `e2e-${randomBytes(4).toString('hex')}`,
    query,
  })

const openHealth = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Health' }).click()

let demo: DemoServer | undefined
test.afterEach(async () => {
  await demo?.stop()
  demo = undefined
})

type Launch = (servers: Record<string, Entry>, options?: LaunchOptions) => Promise<ConsoleHost>

/** A rag-search demo with its own key and a stdio rag-tools-v1 server, on a fresh host. */
async function start(launch: Launch) {
  const key = `e2e-${randomBytes(12).toString('hex')}`
  demo = await startRagSearch(key)
  const servers = { knowledgeSearch: ragSearch(demo.url), companyDocs: stdioDocs }
  const console = await launch(servers, { env: { [KEY_VAR]: key } })
  return { ...console, servers }
}

test('latency charts, errors by code and uptime per server and operation', async ({
  page,
  launch,
}) => {
  const { host } = await start(launch)
  await page.goto(host.url)
  await expect(
    page.getByRole('region', { name: 'companyDocs' }).getByText('ready', { exact: true }),
  ).toBeVisible()
  for (const query of ['vacation policy', 'vpn setup', 'password reset', 'expense report']) {
    const reply = await search(page, query)
    expect(reply.servers.find((s) => s.server === 'knowledgeSearch')?.ok).toBe(true)
  }
  await invoke(page, 'discovery:run')

  await openHealth(page)
  const overview = page.getByRole('table', { name: 'Health of every server' })
  await expect(overview.getByRole('row', { name: 'knowledgeSearch' })).toContainText('ready')
  const kb = page.getByRole('region', { name: 'Health of knowledgeSearch' })
  await expect(
    kb.getByRole('img', { name: /^search latency of knowledgeSearch: now p50/ }),
  ).toBeVisible()
  await expect(
    kb
      .getByRole('table', { name: 'Errors by operation of knowledgeSearch' })
      .getByRole('row', { name: 'search' }),
  ).toContainText('4')
  await expect(page.getByRole('region', { name: 'Health of companyDocs' })).toContainText('Uptime')

  // The server goes away: the next searches fail, counted by code next to the operation.
  await demo!.stop()
  for (const query of ['holiday', 'laptop']) {
    const reply = await search(page, query)
    expect(reply.servers.find((s) => s.server === 'knowledgeSearch')?.ok).toBe(false)
  }
  const searchRow = kb
    .getByRole('table', { name: 'Errors by operation of knowledgeSearch' })
    .getByRole('row', { name: 'search' })
  await expect(searchRow).toContainText('unreachable')
  await expect(searchRow).toContainText('33.3 %')
  await screenshots(page, 'health')

  await page.getByRole('combobox', { name: 'Server' }).selectOption('knowledgeSearch')
  await expect(page.getByRole('region', { name: 'Health of companyDocs' })).toBeHidden()
  await expect(kb).toBeVisible()
})

test('an invalid external edit shows diagnostics while searches keep working', async ({
  page,
  launch,
}) => {
  const { host, file, servers } = await start(launch)
  await page.goto(host.url)
  await expect(
    page.getByRole('region', { name: 'knowledgeSearch' }).getByText('ready', { exact: true }),
  ).toBeVisible()

  // A half-finished edit in another editor: a trailing comma and a wrong type.
  const broken = JSON.stringify(servers, null, 2).replace(
    '"dialect": "rag-search",',
    '"dialect": 42,,',
  )
  writeFileSync(file, broken)
  const banner = page.getByRole('alert').filter({ hasText: 'rag-mcp.json on disk is invalid' })
  await expect(banner).toContainText('the last good config is still running')

  const reply = await search(page, 'vacation policy')
  const kb = reply.servers.find((s) => s.server === 'knowledgeSearch')
  expect(kb?.ok, kb?.error?.message).toBe(true)
  expect(kb?.count).toBeGreaterThan(0)
  await expect(
    page.getByRole('region', { name: 'knowledgeSearch' }).getByText('ready', { exact: true }),
  ).toBeVisible()

  await openHealth(page)
  const history = page.getByRole('list', { name: 'Reload history' })
  const newest = history.getByRole('listitem').first()
  await expect(newest).toContainText('file changed')
  await expect(newest).toContainText('invalid')
  await newest.getByText('invalid').click()
  await expect(newest).toContainText(/line \d+/)
  await screenshots(page, 'health-invalid-edit')
})

test('serves Prometheus metrics from a switch in Health, moves them off a taken port, and stops', async ({
  page,
  launch,
}) => {
  const { host } = await start(launch)
  await page.goto(host.url)
  await openHealth(page)
  const metrics = page.getByRole('form', { name: 'Prometheus metrics' })
  await expect(metrics.getByText('Not served')).toBeVisible()
  const serve = metrics.getByRole('switch', { name: 'Serve /metrics' })
  await expect(serve).toHaveAttribute('aria-checked', 'false')

  // Port 0: any free one, so the test never collides with another console.
  await metrics.getByRole('textbox', { name: 'Port on 127.0.0.1' }).fill('0')
  await serve.click()
  await expect(serve).toHaveAttribute('aria-checked', 'true')
  const url = (await metrics.locator('code').textContent())!
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
  await expect
    .poll(async () => (await fetch(url)).text())
    .toContain('rag_console_server_up{server="knowledgeSearch"} 1')
  await page.getByRole('heading', { name: 'Metrics for Prometheus' }).scrollIntoViewIfNeeded()
  await screenshots(page, 'health-metrics')

  // A port that is taken (the host's own): said so, and the endpoint keeps serving where it was.
  const taken = new URL(host.url).port
  await metrics.getByRole('textbox', { name: 'Port on 127.0.0.1' }).fill(taken)
  await metrics.getByRole('button', { name: `Move to port ${taken}` }).click()
  await expect(metrics.getByText(`metrics port ${taken} on 127.0.0.1 is in use`)).toBeVisible()
  await expect(metrics.locator('code')).toHaveText(url)
  expect((await fetch(url)).status).toBe(200)

  await serve.click()
  await expect(serve).toHaveAttribute('aria-checked', 'false')
  await expect(metrics.getByText('Not served')).toBeVisible()
  await expect(fetch(url)).rejects.toThrow()
})
