import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { DEMO_USERS } from '#demo/access'
import { startChild } from '#test/support/process/start-child'
import { expect, invoke, LATENCY, test, type Entry, type Launch } from './console'
import { root } from './host'

const DEMO = join(root, 'out/main/demo.js')
/** The stored rag-search fixture of the services (a rag-tools-v1 server with a set delay). */
export const RAG_FIXTURE = join(root, 'src/test/fixtures/services/rag-fixture.mjs')
/** A stdio server whose `rag_search` replies break spec 000 on purpose. */
export const BROKEN_FIXTURE = join(root, 'e2e/fixtures/broken-rag.mjs')

/** The demo programs on free ports (`demo.js all --port-base 0`). */
export interface DemoServers {
  urls: { docHost: string; ragSearch: string; ragToolsSse: string; ragbox: string; vtex: string }
  /** Environment for the host: the demo keys the registry reads as `${env:…}`. */
  env: NodeJS.ProcessEnv
  stop: () => Promise<void>
}

/** Starts every demo server on free ports and resolves when the document host is ready. */
export async function startDemoServers(): Promise<DemoServers> {
  const keys = JSON.parse(execFileSync(process.execPath, [DEMO, 'keys']).toString()) as Record<
    string,
    { apiKey: string }
  >
  // RAGbox allows 60 requests and 10 queries a minute per key, like the service it stands for.
  // A spec runs golden sets and searches by the dozen a minute against one set of demo servers
  // and would spend most of its time waiting those windows out: here they allow 10,000. Waiting
  // out RAGbox's limit is tested in src/test/eval-runs.test.ts.
  const limits = ['--rate-limit', '10000', '--query-rate-limit', '10000']
  const args = [DEMO, 'all', '--port-base', '0', ...limits]
  const child = await startChild(args, (lines) => {
    if (!lines.some((line) => line.startsWith('ready '))) return undefined
    const url = (name: string): string => {
      const match = lines
        .map((line) => new RegExp(`^${name}\\s+(http\\S+)`).exec(line))
        .find(Boolean)
      if (!match) throw new Error(`no ${name} line`)
      return match[1]!
    }
    return {
      docHost: url('doc-host').replace(/\/$/, ''),
      ragSearch: url('rag-search'),
      ragToolsSse: url('rag-tools-v1'),
      ragbox: url('ragbox'),
      vtex: url('vtex'),
    }
  })
  return {
    urls: child.ready,
    env: {
      RC_E2E_SEARCH_KEY: keys.knowledgeSearch!.apiKey,
      RC_E2E_VAULT_KEY: keys.documentVault!.apiKey,
    },
    stop: child.stop,
  }
}

/**
 * Starts the demo servers before the tests of the calling spec file and stops them after; the
 * returned getter gives them to a test. Call at the top level of the file.
 */
export function useDemoServers(): () => DemoServers {
  let demo: DemoServers | undefined
  test.beforeAll(async () => {
    demo = await startDemoServers()
  })
  test.afterAll(async () => {
    await demo?.stop()
  })
  return () => {
    if (!demo) throw new Error('the demo servers are not running')
    return demo
  }
}

/** The ids of the five demo servers in {@link demoRegistry}, by name. */
export const DEMO_SERVER_IDS = [
  'companyDocs',
  'documentVault',
  'engineeringWiki',
  'knowledgeSearch',
  'productCatalog',
]

/** The five demo servers (every dialect) as registry entries, like the embedded default. */
export function demoRegistry(demo: DemoServers): Record<string, Entry> {
  const { urls } = demo
  return {
    knowledgeSearch: {
      url: urls.ragSearch,
      headers: { Authorization: 'Bearer ${env:RC_E2E_SEARCH_KEY}' },
      dialect: 'rag-search',
      groups: ['users'],
      dataSources: [
        { id: 'handbook', name: 'Employee Handbook' },
        { id: 'it-kb', name: 'IT Knowledge Base' },
      ],
    },
    companyDocs: {
      transport: 'stdio',
      command: process.execPath,
      args: [DEMO, 'rag-tools-v1', '--stdio', '--doc-host', urls.docHost],
      dialect: 'rag-tools-v1',
      groups: ['users'],
    },
    engineeringWiki: {
      transport: 'sse',
      url: urls.ragToolsSse,
      dialect: 'rag-tools-v1',
      groups: ['users'],
    },
    documentVault: {
      url: urls.ragbox,
      headers: { 'X-API-Key': '${env:RC_E2E_VAULT_KEY}' },
      dialect: 'ragbox',
      groups: ['users'],
    },
    productCatalog: { url: urls.vtex, dialect: 'vtex', groups: ['users'] },
  }
}

/** `@modelcontextprotocol/server-everything`'s entry file. */
export const EVERYTHING = join(
  root,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
)

/** `@modelcontextprotocol/server-everything` over stdio: every content type, resources, prompts. */
export const everything: Entry = {
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  timeoutMs: 20_000,
}

/** A stdio rag-tools-v1 fixture server answering `hits` hits after `delayMs` (e.g. to cancel it). */
export const slowServer = (name: string, delayMs: number, hits = 5): Entry => ({
  transport: 'stdio',
  command: process.execPath,
  args: [RAG_FIXTURE, '--name', name, '--delay', String(delayMs), '--hits', String(hits)],
  dialect: 'rag-tools-v1',
  timeoutMs: 60_000,
})

/** The stdio server with contract violations in its replies. */
export const brokenServer = (): Entry => ({
  transport: 'stdio',
  command: process.execPath,
  args: [BROKEN_FIXTURE],
  dialect: 'rag-search',
})

/** Acts as carol@example.com (legal + admin: every demo server knows her and shows her all). */
export async function becomeCarol(page: Page): Promise<void> {
  await invoke(page, 'profiles:save', {
    id: 'carol',
    name: 'Carol (legal)',
    userId: 'carol@example.com',
    sessionTags: ['department:legal', 'role:admin'],
    groups: ['users', 'legal', 'admin'],
  })
  await invoke(page, 'profiles:activate', { id: 'carol' })
}

/** Acts as Carol and turns on one VTEX category, whose sources all start off. */
export async function actAsCarol(page: Page): Promise<void> {
  await becomeCarol(page)
  await invoke(page, 'selection:set', {
    server: 'productCatalog',
    sources: { 'category/Technical': true, 'category/FAQ': true },
  })
}

/** Opens the console at `url` on the Search panel, as Carol when `carol` is set. */
export async function openSearch(page: Page, url: string, carol = false): Promise<void> {
  await page.goto(url)
  if (carol) await actAsCarol(page)
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Search' })
    .click()
}

/** Saves a profile per demo user (`alice`, `bob`, `carol`, `dan`), as the demo's first run does. */
export async function saveDemoUsers(page: Page): Promise<void> {
  for (const { id: userId, name, groups, sessionTags } of DEMO_USERS) {
    const id = userId.split('@')[0]
    await invoke(page, 'profiles:save', { id, name, userId, groups, sessionTags })
  }
}

/**
 * A data folder (`RAG_CONSOLE_HOME`) holding the shipped demo golden set, as the embedded
 * registry's first run leaves it.
 */
export function dataDirWithDemoSet(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rc-e2e-eval-'))
  mkdirSync(join(dir, 'eval', 'sets'), { recursive: true })
  copyFileSync(
    join(root, 'resources', 'eval', 'demo-golden-set.json'),
    join(dir, 'eval', 'sets', 'demo.json'),
  )
  return dir
}

/** The five demo servers and a sixth with a wrong key, which puts errors in the waterfall, Health and Audit. */
export function demoRegistryWithLockedOut(demo: DemoServers): Record<string, Entry> {
  const lockedOut = {
    url: demo.urls.ragSearch,
    headers: { Authorization: 'Bearer not-the-key' },
    dialect: 'rag-search',
    groups: ['users'],
  }
  return { ...demoRegistry(demo), lockedOut }
}

/**
 * A host on {@link demoRegistryWithLockedOut} with the demo golden set, the page on Search as
 * Carol, the "Now viewing as" notice dismissed (it would cover what follows).
 */
export async function openDemoWithErrors(
  page: Page,
  launch: Launch,
  demo: DemoServers,
): Promise<void> {
  const { host } = await launch(demoRegistryWithLockedOut(demo), {
    env: { ...demo.env, RAG_CONSOLE_HOME: dataDirWithDemoSet() },
  })
  await openSearch(page, host.url, true)
  await page.getByRole('button', { name: 'Dismiss notification' }).click()
  await expect(page.getByRole('button', { name: /^Sources: \d servers/ })).toBeVisible()
}

/** Searches for "vpn setup" and resolves once every demo server's latency shows. */
export async function searchVpnSetup(page: Page): Promise<void> {
  await page.getByLabel('Query').fill('vpn setup')
  await page.keyboard.press('ControlOrMeta+Enter')
  const waterfall = page.getByRole('table', { name: 'Latency by server' })
  for (const server of DEMO_SERVER_IDS) {
    await expect(waterfall.getByRole('row', { name: server })).toContainText(LATENCY)
  }
}

/**
 * Runs the golden set the Evaluation panel shows, on every server but `without`, and waits
 * until the run is done. Starting may wait for each profile's sources (and RAGbox's rate limit).
 */
export async function runGoldenSet(page: Page, runs: number, without?: string): Promise<void> {
  const main = page.getByRole('main', { name: 'Evaluation' })
  const launcher = main.getByRole('form', { name: 'Run a set' })
  if (without) await launcher.getByRole('checkbox', { name: without }).uncheck()
  await launcher.getByRole('button', { name: /^Run / }).click()
  const history = main.getByRole('table', { name: 'Run history' })
  const newest = history.getByRole('row').nth(1)
  await expect(history.getByRole('row')).toHaveCount(runs + 1)
  await expect(newest).not.toContainText('No runs')
  await expect(newest).toContainText('done')
}
