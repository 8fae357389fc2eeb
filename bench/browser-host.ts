import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserType } from 'playwright-core'
import { chromiumPath } from '#test/support/host/chromium'
import { SAFETY_NET_MS } from '#test/support/process/limits'

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const HOST = resolve(root, 'out/main/host.js')
const CHROMIUM = chromiumPath()
/** How long a start may take before it counts as failed: a safety net, not a measurement. */
export const START_TIMEOUT_MS = SAFETY_NET_MS
/** The rag-tools-v1 fixture server (`--http`: one process serving every registry entry). */
export const FIXTURE = `${root}/src/test/fixtures/services/rag-fixture.mjs`

/**
 * `servers` registry entries `r001`, `r002`, … on one fixture HTTP server: every one answers
 * the same hits, so each merged hit was found by all of them.
 */
export function fixtureRegistry(url: string, servers: number): Record<string, unknown> {
  const entries: Record<string, unknown> = {}
  for (let i = 1; i <= servers; i++) {
    entries[`r${String(i).padStart(3, '0')}`] = { url, dialect: 'rag-tools-v1', timeoutMs: 60_000 }
  }
  return entries
}

/**
 * Playwright is loaded from node_modules when the benchmark runs: bundled into out/main it
 * would lose the files it finds next to itself (and add megabytes to every bench run).
 */
async function loadChromium(): Promise<BrowserType> {
  const specifier = 'playwright-core'
  const playwright = (await import(/* @vite-ignore */ specifier)) as { chromium: BrowserType }
  return playwright.chromium
}

/** Debian's Chromium, headless, without what would make its timings noisy. */
export async function launchBrowser(): Promise<Browser> {
  const chromium = await loadChromium()
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      // Lets the page report its heap (performance.memory) in precise figures.
      '--enable-precise-memory-info',
    ],
  })
}

/** A child process that prints one line with a URL when it is ready. */
export interface Running {
  url: string
  stop: () => Promise<void>
}

export function startProcess(
  args: string[],
  pattern: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const stop = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done()
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
      child.once('exit', () => {
        clearTimeout(timer)
        done()
      })
      child.kill('SIGTERM')
    })
  let output = ''
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`${args[0]} did not start:\n${output}`))
    }, START_TIMEOUT_MS)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = pattern.exec(output)
      if (!match) return
      clearTimeout(timer)
      resolveStart({ url: match[1]!, stop })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${args[0]} exited with ${code}:\n${output}`))
    })
  })
}

/**
 * `out/main/host.js` on a fresh data folder and a registry file holding `registry`; resolves
 * with the page URL (token included) once it printed it. `stop` also removes the folder.
 */
export async function startHost(
  registry: Record<string, unknown>,
  env: NodeJS.ProcessEnv = {},
): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'rc-bench-host-'))
  const config = join(dir, 'rag-mcp.json')
  writeFileSync(config, JSON.stringify(registry, null, 2))
  try {
    const host = await startProcess(
      [HOST, '--port', '0', '--config', config],
      /Open: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/,
      {
        RAG_CONSOLE_HOME: join(dir, 'data'),
        HOME: dir,
        XDG_CONFIG_HOME: join(dir, '.config'),
        ...env,
      },
    )
    return {
      url: host.url,
      stop: async () => {
        await host.stop()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}
