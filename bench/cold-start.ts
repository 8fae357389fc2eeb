import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { DEMO_KEY_ENV } from '#demo/endpoints'
import { launchBrowser, root, startHost, startProcess, START_TIMEOUT_MS } from './browser-host'
import { now, summarize, type Benchmark, type BenchResult } from './harness'

const DEMO = join(root, 'out/main/demo.js')
/** Issue target: launching the host to a usable Servers panel. */
const TARGET_MS = 2000

type Registry = Record<string, unknown>

/** `demo.js all --endpoints`: HTTP/SSE endpoints in one process plus stdio entries. */
async function startEndpoints(
  endpoints: number,
  stdio: number,
): Promise<{ registry: Registry; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'rc-bench-cold-'))
  const file = join(dir, 'rag-mcp.json')
  const demo = await startProcess(
    [
      DEMO,
      'all',
      ...['--port-base', '0', '--endpoints', String(endpoints), '--stdio-servers', String(stdio)],
      ...['--registry', file, '--rate-limit', '1000000000'],
    ],
    /^ready (\S+)/m,
  )
  const registry = JSON.parse(readFileSync(file, 'utf8')) as Registry
  rmSync(dir, { recursive: true, force: true })
  return { registry, stop: demo.stop }
}

interface Launch {
  /** Launch to the Servers panel's filter focusable with a server card on screen. */
  usableMs: number
  /** Launch to every server tried once, as the page reports it. */
  allTriedMs: number
}

/**
 * Starts the browser host on `registry` and times, from the spawn, the first usable page: the
 * Servers panel with its first card visible and the filter box taking focus. Then how long
 * until the page says every server was tried (connecting goes on in the background).
 */
async function launchOnce(browser: Browser, registry: Registry): Promise<Launch> {
  const total = Object.keys(registry).length
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
  const started = now()
  const host = await startHost(registry, { ...DEMO_KEY_ENV })
  try {
    await page.goto(host.url)
    const main = page.getByRole('main')
    const filter = main.getByRole('searchbox', { name: 'Filter servers' })
    await filter.focus({ timeout: START_TIMEOUT_MS })
    await main.getByRole('region').first().waitFor({ timeout: START_TIMEOUT_MS })
    if (!(await filter.evaluate((el) => el === el.ownerDocument.activeElement))) {
      throw new Error('the filter box did not take focus')
    }
    const usableMs = now() - started
    await main
      .getByRole('status')
      .filter({ hasText: `${total} of ${total} connected or tried` })
      .waitFor({ timeout: 120_000 })
    return { usableMs, allTriedMs: now() - started }
  } finally {
    await page.close()
    await host.stop()
  }
}

/**
 * Cold start of the browser host with 200 registered servers (180 HTTP/SSE endpoints of one
 * demo process and 20 stdio children) against 5 (one per family), launches interleaved.
 */
export const coldStartBenchmark: Benchmark = {
  name: 'cold-start',
  async run({ quick }): Promise<BenchResult> {
    // A quick run proves the path works (each launch of 200 servers takes a while): one round.
    const rounds = quick ? 1 : 7
    const demo = await startEndpoints(180, 20)
    const browser = await launchBrowser()
    const large = demo.registry
    const ids = Object.keys(large)
    const small = Object.fromEntries(
      ['rag-search-0', 'rag-tools-sse-1', 'ragbox-2', 'vtex-3', ids[ids.length - 1]!].map((id) => [
        id,
        large[id],
      ]),
    )
    const runs = { large: [] as Launch[], small: [] as Launch[] }
    try {
      // A first launch warms the disk cache and Chromium; it is not counted.
      await launchOnce(browser, small)
      for (let round = 0; round < rounds; round++) {
        runs.large.push(await launchOnce(browser, large))
        runs.small.push(await launchOnce(browser, small))
      }
    } finally {
      await browser.close()
      await demo.stop()
    }
    const usable = summarize(
      `launch → usable Servers panel, ${ids.length} servers`,
      'ms',
      runs.large.map((r) => r.usableMs),
    )
    const usableBase = summarize(
      'launch → usable Servers panel, 5 servers (baseline)',
      'ms',
      runs.small.map((r) => r.usableMs),
    )
    const ratio = usable.median / TARGET_MS
    return {
      name: 'cold-start',
      description: `browser host launch to a usable Servers panel: ${ids.length} servers (180 HTTP/SSE, 20 stdio) vs 5`,
      metrics: [
        usable,
        usableBase,
        summarize(
          `launch → every server tried, ${ids.length} servers (in the background)`,
          'ms',
          runs.large.map((r) => r.allTriedMs),
        ),
        summarize(
          'launch → every server tried, 5 servers (baseline)',
          'ms',
          runs.small.map((r) => r.allTriedMs),
        ),
      ],
      comparisons: [
        {
          name: 'cold-start-200-vs-target',
          description: `median launch → usable Servers panel (${ids.length} servers) vs the 2 s target`,
          ratio,
          target: '≤ 1.00',
          ...(quick ? {} : { pass: ratio <= 1 }),
        },
        {
          name: 'cold-start-200-vs-5',
          description: `launch → usable Servers panel, ${ids.length} vs 5 servers (medians)`,
          ratio: usable.median / usableBase.median,
        },
      ],
    }
  },
}
