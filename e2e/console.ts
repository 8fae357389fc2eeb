import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { acquireLock } from '#test/support/process/lock'
import { expect, launchHost, screenshot, SCREENSHOTS, test as base, type RunningHost } from './host'

/** A registry entry as written in rag-mcp.json. */
export type Entry = Record<string, unknown>

/** An HTTP server entry on a loopback port nothing listens on (nothing here connects). */
/** Every panel, in navigation order: Ctrl/⌘+1 opens the first. */
export const PANELS = [
  'Servers',
  'Search',
  'Access',
  'Health',
  'Config',
  'Audit',
  'Workbench',
  'Evaluation',
] as const

/**
 * A latency as the console shows it (`formatMs`): `850 ms`, `1.24 s`, `12.5 s`. On a busy machine
 * a call takes seconds, so a test never assumes milliseconds.
 */
export const LATENCY = /\d+ ms|\d+\.\d+ s/

export const httpServer = (description: string, extra: Entry = {}): Entry => ({
  url: 'http://127.0.0.1:9/mcp',
  description,
  ...extra,
})

/** `count` servers named `server01`…, every third with a keychain key. */
export function manyServers(count: number): Record<string, Entry> {
  const servers: Record<string, Entry> = {}
  for (let i = 1; i <= count; i++) {
    const id = `server${String(i).padStart(2, '0')}`
    servers[id] = httpServer(
      `Knowledge base ${i}`,
      i % 3 === 0 ? { headers: { 'X-API-Key': '${keychain:apiKey}' } } : {},
    )
  }
  return servers
}

export const registryText = (servers: Record<string, Entry>): string =>
  `${JSON.stringify(servers, null, 2)}\n`

export interface ConsoleHost {
  host: RunningHost
  /** The rag-mcp.json the host runs on (`--config`). */
  file: string
  /** A scratch folder (also HOME for the host, so import candidates are found here). */
  dir: string
}

export interface LaunchOptions {
  /** Folder name under the temp dir, e.g. to make the path long. */
  subdir?: string
  env?: NodeJS.ProcessEnv
}

/** Starts a browser host on a registry of these servers (the `launch` fixture). */
export type Launch = (
  servers: Record<string, Entry>,
  options?: LaunchOptions,
) => Promise<ConsoleHost>

/**
 * `launch(servers)` starts a browser host on a fresh registry file and data folder; every host
 * started in a test is stopped after it.
 */
export const test = base.extend<{
  launch: Launch
  /**
   * A host without `--config`: the layered lookup in its data folder decides (the embedded demo
   * registry when that is empty). Stopped after the test.
   */
  launchEmbedded: (options?: { dataDir?: string }) => Promise<RunningHost>
}>({
  // Any console error (a CSP violation, an uncaught exception) fails the test. The page depends on
  // `launch` so that it is checked and closed before the hosts it talks to are stopped.
  page: async ({ page, launch: _launch, launchEmbedded: _launchEmbedded }, use) => {
    const problems: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text())
    })
    page.on('pageerror', (error) => problems.push(error.message))
    await use(page)
    expect(problems, 'console errors in the page').toEqual([])
  },
  launch: async ({}, use) => {
    const started: RunningHost[] = []
    await use(async (servers, options = {}) => {
      const root = mkdtempSync(join(tmpdir(), 'rc-ui-'))
      const dir = options.subdir ? join(root, options.subdir) : root
      mkdirSync(dir, { recursive: true })
      const file = join(dir, 'rag-mcp.json')
      writeFileSync(file, registryText(servers))
      const host = await launchHost({
        config: file,
        env: { HOME: root, XDG_CONFIG_HOME: join(root, '.config'), ...options.env },
      })
      started.push(host)
      return { host, file, dir: root }
    })
    for (const host of started) await host.stop()
  },
  launchEmbedded: async ({}, use) => {
    const started: RunningHost[] = []
    let release: (() => Promise<void>) | undefined
    await use(async (options = {}) => {
      // The embedded registry launches its demo servers on fixed ports: one test at a time has
      // them, whichever worker it runs in.
      release ??= await acquireLock('demo-ports')
      const root = mkdtempSync(join(tmpdir(), 'rc-ui-'))
      const host = await launchHost({
        ...options,
        env: { HOME: root, XDG_CONFIG_HOME: join(root, '.config') },
      })
      started.push(host)
      return host
    })
    for (const host of started) await host.stop()
    await release?.()
  },
})

export { expect }

interface Bridge {
  invoke: (
    channel: string,
    request?: unknown,
  ) => Promise<{ ok: true; value: unknown } | { ok: false; error: { message: string } }>
}

/** Calls the core from the page through `window.ragConsole`, as the renderer does. */
export async function invoke<T>(page: Page, channel: string, request?: unknown): Promise<T> {
  const response = await page.evaluate(
    ([name, body]) =>
      (window as unknown as { ragConsole: Bridge }).ragConsole.invoke(name, body ?? undefined),
    [channel, request ?? null] as const,
  )
  if (!response.ok) throw new Error(`${channel}: ${response.error.message}`)
  return response.value as T
}

/** The parts of `registry:get` the specs look at. */
export interface RegistrySnapshot {
  servers: { id: string }[]
  hashes: Record<string, string>
  invalid?: unknown
}

export const registry = (page: Page): Promise<RegistrySnapshot> =>
  invoke<RegistrySnapshot>(page, 'registry:get')

/** Every text frame the page receives over the host's WebSocket. */
export function recordFrames(page: Page): string[] {
  const frames: string[] = []
  page.on('websocket', (socket) => {
    socket.on('framereceived', (frame) => frames.push(String(frame.payload)))
  })
  return frames
}

/** Opens the Config panel on one of its tabs. */
export async function openConfig(
  page: Page,
  tab: 'rag-mcp.json' | 'Secrets' | 'Import' | 'Reload history' = 'rag-mcp.json',
): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Config' })
    .click()
  await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click()
}

/** The config editor's text area (inside CodeMirror's shadow root). */
export const editor = (page: Page) => page.getByRole('textbox', { name: 'rag-mcp.json' })

/**
 * Replaces the whole editor text by pasting over a select-all, as a user would. (Playwright's
 * `insertText` lets Chromium's own editing insert styled nodes into the contenteditable, which
 * the CSP then reports; a paste goes through CodeMirror's handler.)
 */
export async function replaceEditorText(
  page: Page,
  text: string,
  box = editor(page),
): Promise<void> {
  await box.click()
  await page.keyboard.press('ControlOrMeta+a')
  await box.evaluate((element, pasted) => {
    const data = new DataTransfer()
    data.setData('text/plain', pasted)
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    )
  }, text)
}

/** Saves a light and a dark screenshot: `<name>-light.png`, `<name>-dark.png`. */
export async function screenshots(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return
  await page.emulateMedia({ colorScheme: 'light' })
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

/** Clicks the button that starts a download, saves it and returns its name and text. */
export async function download(
  page: Page,
  button: string,
): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ])
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') }
}
