import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserType, Page } from 'playwright-core'
import { summarize, type Benchmark, type BenchResult, type Metric } from './harness'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const FIXTURE = resolve(root, 'src/main/core/services/fixtures/rag-fixture.mjs')
const HOST = resolve(root, 'out/main/host.js')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const START_TIMEOUT_MS = 30_000
/** A frame slower than baseline by more than this is visible jank. */
const SCROLL_TARGET_RATIO = 1.25

/**
 * Playwright is loaded from node_modules when the benchmark runs: bundled into out/main it
 * would lose the files it finds next to itself (and add megabytes to every bench run).
 */
async function loadChromium(): Promise<BrowserType> {
  const specifier = 'playwright-core'
  const playwright = (await import(/* @vite-ignore */ specifier)) as { chromium: BrowserType }
  return playwright.chromium
}

/** A child process that prints one line with a URL when it is ready. */
interface Running {
  url: string
  stop: () => Promise<void>
}

function startProcess(
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

/** `servers` registry entries on one fixture HTTP server, each answering `hits` hits. */
function registry(url: string, servers: number): Record<string, unknown> {
  const entries: Record<string, unknown> = {}
  for (let i = 1; i <= servers; i++) {
    entries[`r${String(i).padStart(2, '0')}`] = { url, dialect: 'rag-tools-v1', timeoutMs: 30_000 }
  }
  return entries
}

/** The browser globals the in-page probes use (this project compiles without the DOM lib). */
interface PageElement {
  textContent: string | null
  scrollTop: number
  readonly scrollHeight: number
  readonly clientHeight: number
  click(): void
}
interface PageScope {
  document: {
    querySelector(selector: string): PageElement | null
    querySelectorAll(selector: string): Iterable<PageElement>
  }
  requestAnimationFrame(callback: (at: number) => void): number
}

/** Time from a click on a tab to the frame after the list's first rows were painted. */
function tabToPaint(page: Page, tab: string, list: string): Promise<number> {
  return page.evaluate(
    ([tabName, listName]) =>
      new Promise<number>((done, fail) => {
        const { document, requestAnimationFrame } = globalThis as unknown as PageScope
        const button = [...document.querySelectorAll('[role=tab]')].find((el) =>
          el.textContent?.startsWith(tabName),
        )
        if (!button) return fail(new Error(`no tab ${tabName}`))
        const started = performance.now()
        const deadline = started + 10_000
        button.click()
        const check = (): void => {
          const row = document.querySelector(
            `[role=listbox][aria-label="${listName}"] [role=option]`,
          )
          if (row) {
            // After this frame's paint: a task queued from rAF runs once the frame is out.
            requestAnimationFrame(() => setTimeout(() => done(performance.now() - started), 0))
          } else if (performance.now() > deadline) fail(new Error(`${listName} never painted`))
          else requestAnimationFrame(check)
        }
        check()
      }),
    [tab, list] as const,
  )
}

/** Scrolls the list by `step` px per frame for `frames` frames; returns each frame's duration. */
function scrollFrames(page: Page, list: string, frames: number, step: number): Promise<number[]> {
  return page.evaluate(
    ([listName, count, px]) =>
      new Promise<number[]>((done, fail) => {
        const { document, requestAnimationFrame } = globalThis as unknown as PageScope
        const box = document.querySelector(`[role=listbox][aria-label="${listName}"]`)
        if (!box) return fail(new Error(`no ${listName}`))
        const times: number[] = []
        let last = 0
        let direction = 1
        const tick = (at: number): void => {
          if (last) times.push(at - last)
          last = at
          if (times.length >= count) return done(times)
          const bottom = box.scrollHeight - box.clientHeight
          if (box.scrollTop + px * direction > bottom || box.scrollTop + px * direction < 0) {
            direction = -direction
          }
          box.scrollTop += px * direction
          requestAnimationFrame(tick)
        }
        requestAnimationFrame(tick)
      }),
    [list, frames, step] as const,
  )
}

/** A page showing a finished search on its own host, and how to clean it all up. */
interface Scene {
  page: Page
  /** Rows in the "All hits" list. */
  hits: number
  close: () => Promise<void>
}

/** One host on a registry of `servers` fixture servers; a search asks each for `topK` hits. */
async function openScene(
  browser: Browser,
  fixtureUrl: string,
  servers: number,
  topK: number,
): Promise<Scene> {
  const dir = mkdtempSync(join(tmpdir(), 'rc-bench-renderer-'))
  const config = join(dir, 'rag-mcp.json')
  writeFileSync(config, JSON.stringify(registry(fixtureUrl, servers), null, 2))
  const host = await startProcess(
    [HOST, '--port', '0', '--config', config],
    /Open: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/,
    { RAG_CONSOLE_HOME: join(dir, 'data'), HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') },
  )
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
  const close = async (): Promise<void> => {
    await page.close()
    await host.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await page.goto(host.url)
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Search' })
      .click()
    await page
      .getByRole('button', { name: new RegExp(`^Sources: ${servers} servers?`) })
      .waitFor({ timeout: START_TIMEOUT_MS })
    await page.getByLabel('Query').fill('renderer benchmark')
    await page.getByLabel('Top k').selectOption(String(topK))
    await page.getByRole('button', { name: 'Run' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: /merged hits? in/ })
      .waitFor({ timeout: START_TIMEOUT_MS })
    // Warm-up: the first mount compiles and lays out for the first time.
    await tabToPaint(page, 'All hits', 'All hits')
    const hits = await page
      .getByRole('listbox', { name: 'All hits' })
      .getByRole('option')
      .first()
      .getAttribute('aria-setsize')
    return { page, hits: Number(hits), close }
  } catch (error) {
    await close()
    throw error
  }
}

/** How many frames took long enough to see a stutter (more than a frame and a half at 60 Hz). */
function janky(name: string, frames: number[]): Metric {
  return {
    name,
    unit: 'count',
    median: frames.filter((ms) => ms > 25).length,
    samples: frames.length,
  }
}

/** Remounts the list (Merged, then All hits) and times its first paint. */
async function firstPaint(scene: Scene): Promise<number> {
  await tabToPaint(scene.page, 'Merged', 'Merged hits')
  return tabToPaint(scene.page, 'All hits', 'All hits')
}

/**
 * The Search panel's "All hits" list in Chromium through the browser host, fed by real searches
 * over IPC: 50 fixture servers × 100 hits (5,000 rows) against one server × 50 hits measured
 * in the same run. Time from the tab click to the painted list, and the frame times of a
 * continuous scroll (the list is virtualized, so both should stay near the baseline).
 */
export const rendererBenchmark: Benchmark = {
  name: 'renderer',
  async run({ quick }): Promise<BenchResult> {
    const rounds = quick ? 3 : 12
    const framesPerRound = quick ? 15 : 40
    const fixture = await startProcess(
      [FIXTURE, '--http', '--name', 'bench', '--hits', '100'],
      /listening on (\S+)/,
    )
    const chromium = await loadChromium()
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    })
    const scenes: Scene[] = []
    try {
      const base = await openScene(browser, fixture.url, 1, 50)
      scenes.push(base)
      const large = await openScene(browser, fixture.url, 50, 100)
      scenes.push(large)
      if (large.hits !== 5000 || base.hits !== 50) {
        throw new Error(`expected 5,000 and 50 rows, the lists held ${large.hits} and ${base.hits}`)
      }
      // Interleaved, so whatever else the machine does hits both lists alike.
      const paint = { base: [] as number[], large: [] as number[] }
      const frames = { base: [] as number[], large: [] as number[] }
      for (let round = 0; round < rounds; round++) {
        paint.base.push(await firstPaint(base))
        paint.large.push(await firstPaint(large))
        frames.base.push(...(await scrollFrames(base.page, 'All hits', framesPerRound, 240)))
        frames.large.push(...(await scrollFrames(large.page, 'All hits', framesPerRound, 240)))
      }
      const metrics: Metric[] = [
        summarize('first paint of 5,000 hits', 'ms', paint.large),
        summarize('first paint of 50 hits (baseline)', 'ms', paint.base),
        summarize('scroll frame, 5,000 hits', 'ms', frames.large),
        summarize('scroll frame, 50 hits (baseline)', 'ms', frames.base),
        janky('frames over 25 ms, 5,000 hits', frames.large),
        janky('frames over 25 ms, 50 hits (baseline)', frames.base),
      ]
      const [paintLarge, paintBase, frameLarge, frameBase] = metrics as [
        Metric,
        Metric,
        Metric,
        Metric,
      ]
      const scrollRatio = frameLarge.p95! / frameBase.p95!
      return {
        name: 'renderer',
        description:
          'Search panel "All hits" in Chromium via the browser host: 5,000 hits (50 servers × 100) vs 50 hits',
        metrics,
        comparisons: [
          {
            name: 'first-paint-5000-vs-50',
            description: 'first paint of the hit list, 5,000 vs 50 hits (medians)',
            ratio: paintLarge.median / paintBase.median,
          },
          {
            name: 'scroll-p95-5000-vs-50',
            description: 'scroll frame time p95, 5,000 vs 50 hits',
            ratio: scrollRatio,
            target: `≤ ${SCROLL_TARGET_RATIO.toFixed(2)}`,
            // A quick run has too few frames for a verdict on a shared machine.
            ...(quick ? {} : { pass: scrollRatio <= SCROLL_TARGET_RATIO }),
          },
        ],
      }
    } finally {
      for (const scene of scenes) await scene.close()
      await browser.close()
      await fixture.stop()
    }
  },
}
