import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { Core } from '#core/core'
import { startCore } from '#test/support/core/live-core'
import { startBrowserHost } from '#main/host/server'
import type { EventName } from '#shared/ipc/events'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import { FIXTURE, fixtureRegistry, launchBrowser, root, startProcess } from './browser-host'
import { whenReady } from './demo-servers'
import { until, type Benchmark, type BenchResult, type Check, type Metric } from './harness'

/** Events and replies one page received over its WebSocket: frames and bytes, by name. */
export interface Traffic {
  events: Map<string, { frames: number; bytes: number }>
  replies: Map<string, { frames: number; bytes: number }>
  /** The servers whose workbench:protocol events arrived. */
  logServers: Set<string>
}

const EVENT_FRAME = /^\{"event":\{"name":"([^"]+)"/
const REPLY_FRAME = /^\{"id":(\d+)[,}]/
const REQUEST_FRAME = /^\{"id":(\d+),"channel":"([^"]+)"/
const LOG_SERVER = /^\{"event":\{"name":"workbench:protocol","payload":\{"server":"([^"]+)"/

/**
 * Adds one frame the host sent a page to its traffic: an event by its name, a reply by the
 * channel of the request it answers (`channels`: request id → channel, from the frames sent).
 */
export function countFrame(traffic: Traffic, channels: Map<number, string>, text: string): void {
  const bytes = Buffer.byteLength(text)
  const event = EVENT_FRAME.exec(text)
  const reply = event ? undefined : REPLY_FRAME.exec(text)
  const [bucket, name] = event
    ? [traffic.events, event[1]!]
    : [traffic.replies, (reply && channels.get(Number(reply[1]))) ?? 'unknown']
  const server = LOG_SERVER.exec(text)?.[1]
  if (server) traffic.logServers.add(server)
  const seen = bucket.get(name) ?? { frames: 0, bytes: 0 }
  bucket.set(name, { frames: seen.frames + 1, bytes: seen.bytes + bytes })
}

/** Counts every frame the page's sockets receive from now on; `reset` starts again. */
function track(page: Page): { traffic: Traffic; reset: () => void } {
  const traffic: Traffic = { events: new Map(), replies: new Map(), logServers: new Set() }
  const channels = new Map<number, string>()
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const request = REQUEST_FRAME.exec(String(payload))
      if (request) channels.set(Number(request[1]), request[2]!)
    })
    socket.on('framereceived', ({ payload }) => countFrame(traffic, channels, String(payload)))
  })
  return {
    traffic,
    reset: () => {
      traffic.events.clear()
      traffic.replies.clear()
      traffic.logServers.clear()
    },
  }
}

/** A round trip on the page's socket: every event sent to it before has arrived. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const api = (globalThis as unknown as { ragConsole: { invoke(c: string): Promise<unknown> } })
      .ragConsole
    await api.invoke('app:info')
  })
}

async function openPage(browser: Browser, url: string) {
  // A context each: the pages share no stored UI state (panel, Workbench tab).
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } })
  const page = await context.newPage()
  // 500 servers load slowly on a busy machine: waits are bounded, not timed.
  page.setDefaultTimeout(300_000)
  const tracked = track(page)
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Main' }).waitFor()
  return { page, ...tracked, close: () => context.close() }
}

/** Opens the Workbench on `server`, on its protocol log or left on its Tools tab. */
async function openWorkbench(page: Page, server: string, log: boolean): Promise<void> {
  await page.keyboard.press('ControlOrMeta+7')
  const main = page.getByRole('main', { name: 'Workbench' })
  await main.getByLabel('Server', { exact: true }).selectOption(server)
  if (log) {
    await main.getByRole('tab', { name: 'Protocol log' }).click()
    await main.getByRole('table', { name: `Protocol log of ${server}` }).waitFor()
  } else {
    await main.getByRole('navigation', { name: `Tools of ${server}` }).waitFor()
  }
}

/** Server calls (not probes) the core makes while `work` runs. */
async function callsDuring(core: Core, work: () => Promise<unknown>): Promise<number> {
  let calls = 0
  const stop = core.calls.add((record) => {
    if (!record.probe) calls += 1
  })
  try {
    await work()
  } finally {
    stop()
  }
  return calls
}

const step = (text: string): void => void process.stderr.write(`payloads: ${text}\n`)

const PAGES = {
  searching: 'the searching page (Search panel; Workbench closed)',
  servers: 'another page on the Servers panel (Workbench closed)',
  tools: "another page with the Workbench open on r001's Tools tab (its log hidden)",
  log: "another page showing r001's protocol log",
} as const

const bytesOf = (traffic: Traffic, name: string): { frames: number; bytes: number } =>
  traffic.events.get(name) ?? { frames: 0, bytes: 0 }

const total = (traffic: Traffic): number =>
  [...traffic.events.values(), ...traffic.replies.values()].reduce((sum, t) => sum + t.bytes, 0)

/**
 * A search over `servers` fixture servers (100 hits each, every hit found by all of them)
 * through the browser host, run by one page while three others are open; what each page is
 * sent, and two discoveries in a row before it.
 */
async function pagesScene(
  servers: number,
): Promise<{ metrics: Metric[]; checks: Check[]; notes: string[] }> {
  const fixture = await startProcess(
    [FIXTURE, '--http', '--name', 'bench', '--hits', '100'],
    /listening on (\S+)/,
  )
  const live = await startCore(fixtureRegistry(fixture.url, servers))
  const metrics: Metric[] = []
  const checks: Check[] = []
  const notes: string[] = []
  let browser: Browser | undefined
  try {
    const { core } = live
    const ids = Object.keys(fixtureRegistry(fixture.url, servers))
    await whenReady(core, ids, 300_000)
    step('connected')

    // Two automatic discoveries in a row (page loads, a server's status changing), then one a
    // person asks for.
    const discovery = core.services.discovery
    const first = await callsDuring(core, () => discovery.run({ automatic: true }))
    const second = await callsDuring(core, () => discovery.run({ automatic: true }))
    const again = await callsDuring(core, () => discovery.run({}))
    metrics.push(
      { name: `server calls of a discovery of ${servers} servers`, unit: 'count', median: first },
      {
        name: 'server calls of the same discovery again, at once (automatic)',
        unit: 'count',
        median: second,
      },
      { name: "server calls of a person's discovery (Rediscover)", unit: 'count', median: again },
    )
    checks.push(
      {
        name: 'discovery-cached',
        description: 'server calls of a second automatic discovery within the cache time',
        value: second,
        unit: 'count',
        target: '= 0',
        pass: second === 0,
      },
      {
        name: 'discovery-refresh',
        description: `server calls of a person's discovery (Rediscover): every server is asked (${servers})`,
        value: again,
        unit: 'count',
        target: `= ${servers}`,
        pass: again === servers,
      },
    )

    const host = await startBrowserHost({ core, rendererDir: join(root, 'out/renderer') })
    step('discovered')
    browser = await launchBrowser()
    const pages = {
      searching: await openPage(browser, host.url),
      servers: await openPage(browser, host.url),
      tools: await openPage(browser, host.url),
      log: await openPage(browser, host.url),
    }
    try {
      const searching = pages.searching.page
      await searching
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: 'Search' })
        .click()
      await searching
        .getByRole('button', { name: new RegExp(`^Sources: ${servers} servers?`) })
        .waitFor({ timeout: 300_000 })
      await searching.getByLabel('Query').fill('payload benchmark')
      await searching.getByLabel('Top k').selectOption('100')
      await openWorkbench(pages.tools.page, 'r001', false)
      await openWorkbench(pages.log.page, 'r001', true)
      for (const page of Object.values(pages)) await settled(page.page)
      step('pages ready')

      // The search's replies, as the core announces them: the end of its protocol events.
      const answered = new Set<string>()
      const started = Date.now()
      const stop = core.events.on('workbench:protocol', ({ server, entries }) => {
        const reply = (entry: ProtocolEntry): boolean =>
          entry.direction === 'in' &&
          (entry.kind === 'response' || entry.kind === 'error') &&
          entry.at >= started
        if (entries.some(reply)) answered.add(server)
      })
      // Everything the core emitted meanwhile: what each page was sent when every page got every
      // event (the baseline the pages' figures are read against).
      const emitted = new Map<string, number>()
      const stopEmitted = core.events.onAny((name, payload) => {
        emitted.set(name, (emitted.get(name) ?? 0) + eventBytes(name, payload))
      })
      for (const page of Object.values(pages)) page.reset()
      await searching.getByRole('button', { name: 'Run' }).click()
      await searching
        .getByRole('status')
        .filter({ hasText: /merged hits? in/ })
        .waitFor({ timeout: 300_000 })
      step('searched')
      await until(() => answered.size === servers, 60_000, 'every reply in the protocol log')
      stop()
      stopEmitted()
      for (const page of Object.values(pages)) await settled(page.page)
      step('pages ready')

      for (const [key, label] of Object.entries(PAGES) as [keyof typeof PAGES, string][]) {
        const { traffic } = pages[key]
        const protocol = bytesOf(traffic, 'workbench:protocol')
        metrics.push(
          { name: `workbench:protocol events to ${label}`, unit: 'count', median: protocol.frames },
          { name: `workbench:protocol bytes to ${label}`, unit: 'bytes', median: protocol.bytes },
          {
            name: `search:progress bytes to ${label}`,
            unit: 'bytes',
            median: bytesOf(traffic, 'search:progress').bytes,
          },
          { name: `all bytes to ${label}`, unit: 'bytes', median: total(traffic) },
        )
      }
      for (const name of ['workbench:protocol', 'search:progress']) {
        metrics.push({
          name: `${name} bytes the core emitted (every page's share when each got all)`,
          unit: 'bytes',
          median: emitted.get(name) ?? 0,
        })
      }
      const reply = pages.searching.traffic.replies.get('search:run')
      // The same search on the core: its merged list with and without where each hit was found.
      const whole = await core.services.search.run({
        searchId: 'payloads-whole',
        query: 'payload benchmark',
        topK: 100,
        quiet: true,
      })
      const stripped = whole.hits.map(({ foundIn: _foundIn, ...hit }) => hit)
      metrics.push(
        {
          name: `the merged reply (search:run) to a search of ${servers} × 100 hits`,
          unit: 'bytes',
          median: reply?.bytes ?? Number.NaN,
        },
        {
          name: 'its merged list with foundIn (as a whole reply carries it)',
          unit: 'bytes',
          median: Buffer.byteLength(JSON.stringify(whole.hits)),
        },
        {
          name: 'its merged list without foundIn (as a streamed reply carries it)',
          unit: 'bytes',
          median: Buffer.byteLength(JSON.stringify(stripped)),
        },
      )
      for (const key of ['searching', 'servers'] as const) {
        checks.push({
          name: `protocol-to-${key}`,
          description: `workbench:protocol events to ${PAGES[key]}`,
          value: bytesOf(pages[key].traffic, 'workbench:protocol').frames,
          unit: 'count',
          target: '= 0',
          pass: bytesOf(pages[key].traffic, 'workbench:protocol').frames === 0,
        })
      }
      const shown = bytesOf(pages.log.traffic, 'workbench:protocol').frames
      const logServers = [...pages.log.traffic.logServers]
      checks.push(
        {
          name: 'protocol-to-log',
          description: `workbench:protocol events to ${PAGES.log}: r001's search traffic`,
          value: shown,
          unit: 'count',
          target: '≥ 1',
          pass: shown >= 1,
        },
        {
          name: 'protocol-to-log-servers',
          description: `servers whose workbench:protocol events reached ${PAGES.log}`,
          value: logServers.length,
          unit: 'count',
          target: '= 1 (r001)',
          pass: logServers.length === 1 && logServers[0] === 'r001',
        },
      )
      notes.push(
        `A search over ${servers} registry entries of one fixture HTTP server (\`rag-fixture.mjs --hits 100\`, the same 100 hits from every entry, so each merged hit was found by all ${servers}), top k 100, run in one page of an in-process browser host while three other pages were open (each in a browser context of its own); frames and bytes each page's WebSocket received from the click on Run until every server's reply had been announced and a round trip on each socket. No health probes. Bytes are the frames' UTF-8 lengths: they do not depend on the machine's load.`,
      )
    } finally {
      for (const page of Object.values(pages)) await page.close()
      await host.close()
    }
  } finally {
    await browser?.close()
    await live.close()
    await fixture.stop()
  }
  return { metrics, checks, notes }
}

/** The JSON text of an event as the host writes it for a page. */
const eventBytes = (name: string, payload: unknown): number =>
  Buffer.byteLength(JSON.stringify({ event: { name, payload } }))

/**
 * A canary of a server whose hits are large (20 hits of 20 kB), run once: the bytes
 * of every event it causes, and of the `search:progress` a plain search of its query sends.
 */
async function canaryScene(): Promise<{ metrics: Metric[]; notes: string[] }> {
  const fixture = await startProcess(
    [FIXTURE, '--http', '--name', 'big', '--hits', '20', '--chunk-size', '20000'],
    /listening on (\S+)/,
  )
  const registry = {
    big: {
      url: fixture.url,
      dialect: 'rag-tools-v1',
      canaries: [{ name: 'vpn', query: 'vpn', expect: { minHits: 5 } }],
    },
  }
  const live = await startCore(registry, { monitor: { canaryIntervalMs: 0 } })
  try {
    const { core } = live
    await whenReady(core, ['big'])
    step('canary server ready')
    const sent = new Map<EventName, number>()
    const stop = core.events.onAny((name, payload) => {
      sent.set(name, (sent.get(name) ?? 0) + eventBytes(name, payload))
    })
    let reported = false
    const off = core.events.on('registry:canaries', () => (reported = true))
    // The canaries' first run, onto the history entry of the load that brought the server.
    core.monitoring!.startCanaries()
    await until(() => reported, 60_000, 'the canary run to report')
    off()
    stop()
    let plain = 0
    const stopPlain = core.events.on('search:progress', ({ result }) => {
      plain += eventBytes('search:progress', { searchId: 'plain', result })
    })
    await core.services.search.run({
      searchId: 'plain',
      query: 'vpn',
      topK: 10,
      selection: { big: [] },
    })
    stopPlain()
    return {
      metrics: [
        {
          name: 'registry:canaries event of a canary run',
          unit: 'bytes',
          median: sent.get('registry:canaries') ?? 0,
        },
        {
          name: 'search:progress bytes sent during that canary run',
          unit: 'bytes',
          median: sent.get('search:progress') ?? 0,
        },
        {
          name: "search:progress of a plain search of the canary's query (10 hits of 20 kB)",
          unit: 'bytes',
          median: plain,
        },
      ],
      notes: [
        "Canary: one fixture server answering hits of 20 kB, a canary `{query: 'vpn', expect: {minHits: 5}}` run once (its first run, reported on the history entry of the registry's load); every event of that run as JSON (the protocol log's aside), against the search:progress a plain search of the same query sends.",
      ],
    }
  } finally {
    await live.close()
    await fixture.stop()
  }
}

/**
 * What the console sends, and to whom, in bytes and server calls: figures that do not move with
 * the machine's load. A 500-server search (`--quick`: 20) through the browser host with pages
 * that show the protocol log, hide it or never open it; the merged reply; two discoveries in a
 * row and a refresh; a canary run.
 */
export const payloadsBenchmark: Benchmark = {
  name: 'payloads',
  async run({ quick }): Promise<BenchResult> {
    const servers = quick ? 20 : 500
    const pages = await pagesScene(servers)
    const canary = await canaryScene()
    return {
      name: 'payloads',
      description: `events and bytes each page is sent during a search of ${servers} servers × 100 hits, the merged reply, discovery's server calls, a canary run's events`,
      metrics: [...pages.metrics, ...canary.metrics],
      comparisons: [],
      checks: pages.checks,
      notes: [...pages.notes, ...canary.notes],
    }
  },
}
