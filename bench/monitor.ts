import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEMO_KEY_ENV } from '#demo/endpoints'
import { eachLine, startChild } from '#test/support/process/start-child'
import { demoScript } from './demo-servers'
import { Inspector, inspectorUrl, isInspectorNotice } from './inspector'
import { median, pause, type Benchmark, type BenchResult, type Check } from './harness'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** How a run of `rag-console monitor` is measured. */
export interface MonitorPlan {
  servers: number
  /** `--interval`: probes and canaries. */
  intervalMs: number
  /** How long CPU and memory are measured, after every server is up and one interval passed. */
  durationMs: number
  sampleEveryMs: number
  /** Samples in this first part of the run are reported but left out of the growth figure. */
  warmupMs: number
}

/** The issue's numbers: 200 servers, probes every 15 s, 30 minutes. */
export const FULL_PLAN: MonitorPlan = {
  servers: 200,
  intervalMs: 15_000,
  durationMs: 30 * 60_000,
  sampleEveryMs: 60_000,
  // Covers the health window (5 min of samples per operation) filling up.
  warmupMs: 5 * 60_000,
}
/** Quick: the same 200 servers probed every second for 20 s (15× the full run's probe rate). */
export const QUICK_PLAN: MonitorPlan = {
  servers: 200,
  intervalMs: 1_000,
  durationMs: 20_000,
  sampleEveryMs: 2_000,
  warmupMs: 4_000,
}

/** Most CPU the monitor may use, in % of one core, at the full plan's probe rate. */
export const CPU_LIMIT_PERCENT = 5
/** Most heap the last third of the run may hold over the first third (medians). */
export const HEAP_GROWTH_LIMIT_MB = 2

export interface MemorySample {
  /** Since the measurement began. */
  atMs: number
  /** Heap used right after a forced full GC: what the process still holds. */
  heapMB: number
  rssMB: number
}

export interface MonitorMeasurement {
  cpuPercent: number
  samples: MemorySample[]
  upServers: number
  /** Probes that answered, that failed with an error, and that timed out. */
  probes: { ok: number; failed: number; timedOut: number }
  /** The error codes of the probes that failed with an error (`failed`), each with how many. */
  failureCodes: Record<string, number>
  /** Why the servers of the probes that failed went down, one message per kind. */
  downReasons: string[]
}

/** A sample's value in Prometheus text exposition (the first series of that name). */
export function sampleValue(text: string, name: string): number | undefined {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)
  return match ? Number(match[1]) : undefined
}

/** How many servers `rag_console_server_up` shows up. */
export function upCount(text: string): number {
  return text.match(/^rag_console_server_up\{[^}]*\} 1$/gm)?.length ?? 0
}

/** At most this many kinds of failure are named: enough to tell one cause from several. */
const MAX_DOWN_REASONS = 3

/**
 * The distinct messages of servers that went down, with the server's id and the port made
 * generic (`S`, `PORT`), so 30 servers reset the same way give one reason.
 */
export function downReasonsOf(downs: { server: string; message: string }[]): string[] {
  const reasons = new Set<string>()
  for (const { server, message } of downs) {
    if (reasons.size >= MAX_DOWN_REASONS) break
    // The id as a whole word only: server `c` leaves "closed the connection" alone.
    const id = new RegExp(
      `(?<![\\w-])${server.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`,
      'g',
    )
    reasons.add((server ? message.replace(id, 'S') : message).replace(/:\d{2,5}\b/g, ':PORT'))
  }
  return [...reasons]
}

/**
 * The messages of the servers whose probes failed with an error: each such probe is paired with
 * its server's `down` status line, whichever of the two the monitor printed first. A server that
 * went down for another reason (a slow connect while 200 servers start at once) names nothing.
 */
export class ProbeFailureReasons {
  /** The message of each server that is down now. */
  private readonly down = new Map<string, string>()
  /** Servers whose failed probe came before their `down` line. */
  private readonly waiting = new Set<string>()
  private readonly found: { server: string; message: string }[] = []

  status(server: string, state: string, message: string | undefined): void {
    if (state !== 'down' || message === undefined) {
      this.down.delete(server)
      this.waiting.delete(server)
      return
    }
    this.down.set(server, message)
    if (this.waiting.delete(server)) this.found.push({ server, message })
  }

  failedProbe(server: string): void {
    const message = this.down.get(server)
    if (message === undefined) this.waiting.add(server)
    else this.found.push({ server, message })
  }

  reasons(): string[] {
    return downReasonsOf(this.found)
  }
}

/** Least-squares slope of heap over time, in MB per hour. */
export function heapSlopePerHour(samples: MemorySample[]): number {
  if (samples.length < 2) return 0
  const xs = samples.map((s) => s.atMs / 3_600_000)
  const ys = samples.map((s) => s.heapMB)
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length
  const my = ys.reduce((a, b) => a + b, 0) / ys.length
  let num = 0
  let den = 0
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my)
    den += (xs[i]! - mx) ** 2
  }
  return den === 0 ? 0 : num / den
}

/**
 * Median heap of the last third of the samples minus that of the first third, counting only
 * samples taken after `warmupMs`.
 */
export function heapGrowth(all: MemorySample[], warmupMs = 0): number {
  const samples = all.filter((s) => s.atMs >= warmupMs)
  const third = Math.max(1, Math.floor(samples.length / 3))
  const heap = (part: MemorySample[]) => median(part.map((s) => s.heapMB))
  return heap(samples.slice(-third)) - heap(samples.slice(0, third))
}

/**
 * Starts `plan.servers` demo endpoints (one `demo.js all --endpoints N` process) and the built
 * `rag-console monitor` on its registry; measures the monitor process through its own /metrics
 * (process CPU seconds), and its memory after a forced full GC over the DevTools protocol,
 * once every server is up.
 */
export async function measureMonitor(
  plan: MonitorPlan,
  scripts: { demo: string; cli: string } = {
    demo: demoScript(),
    cli: join(root, 'out/main/cli.js'),
  },
): Promise<MonitorMeasurement> {
  const dir = mkdtempSync(join(tmpdir(), 'rc-bench-monitor-'))
  const registry = join(dir, 'rag-mcp.json')
  const demo = await startChild(
    [
      scripts.demo,
      'all',
      '--port-base',
      '0',
      '--endpoints',
      String(plan.servers),
      '--registry',
      registry,
      '--rate-limit',
      '1000000000',
    ],
    (lines) => (lines.some((line) => line.startsWith('ready ')) ? true : undefined),
    120_000,
  )
  const monitor = spawn(
    process.execPath,
    [
      // The benchmark forces full GCs and reads memory over the DevTools protocol.
      '--inspect=127.0.0.1:0',
      scripts.cli,
      '--json',
      '--config',
      registry,
      'monitor',
      '--metrics-port',
      '0',
      '--interval',
      `${plan.intervalMs}ms`,
    ],
    {
      env: { ...process.env, RAG_CONSOLE_HOME: join(dir, 'home'), ...DEMO_KEY_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const exited = new Promise<void>((done) => monitor.once('exit', () => done()))
  const probes = { ok: 0, failed: 0, timedOut: 0 }
  const failureCodes: Record<string, number> = {}
  const reasons = new ProbeFailureReasons()
  let metricsUrl: string | undefined
  let debuggerUrl: string | undefined
  eachLine(monitor.stdout, (text) => {
    const line = JSON.parse(text) as {
      event: string
      ok?: boolean
      code?: string
      url?: string
      server?: string
      status?: string
      error?: { message?: string }
    }
    if (line.event === 'metrics') metricsUrl = line.url
    if (line.event === 'status') {
      reasons.status(line.server ?? '', line.status ?? '', line.error?.message)
    }
    if (line.event === 'probe') {
      if (line.ok) probes.ok++
      else if (line.code === 'timeout') probes.timedOut++
      else {
        probes.failed++
        reasons.failedProbe(line.server ?? '')
        const code = line.code ?? '?'
        failureCodes[code] = (failureCodes[code] ?? 0) + 1
      }
    }
  })
  eachLine(monitor.stderr, (text) => {
    debuggerUrl ??= inspectorUrl(text)
    if (!isInspectorNotice(text)) process.stderr.write(`${text}\n`)
  })
  const scrape = async (): Promise<string> => (await fetch(metricsUrl!)).text()
  let inspector: Inspector | undefined
  try {
    const deadline = Date.now() + 180_000
    while (!metricsUrl || !debuggerUrl || upCount(await scrape()) < plan.servers) {
      if (Date.now() > deadline || monitor.exitCode !== null) {
        throw new Error(`not every server came up within 180 s (monitor exit ${monitor.exitCode})`)
      }
      await pause(500)
    }
    inspector = await Inspector.connect(debuggerUrl)
    await pause(plan.intervalMs)
    const cpu = (text: string): number =>
      sampleValue(text, 'rag_console_process_cpu_seconds_total') ?? NaN
    const started = performance.now()
    const sample = async (): Promise<MemorySample> => {
      const atMs = performance.now() - started
      const memory = await inspector!.memoryAfterGc()
      return { atMs, heapMB: memory.heapUsedMB, rssMB: memory.rssMB }
    }
    const first = await scrape()
    const samples = [await sample()]
    // On a schedule, so a slow forced GC under load costs no samples.
    const count = Math.floor(plan.durationMs / plan.sampleEveryMs)
    for (let i = 1; i <= count; i++) {
      await pause(Math.max(0, i * plan.sampleEveryMs - (performance.now() - started)))
      samples.push(await sample())
    }
    const last = await scrape()
    const seconds = (performance.now() - started) / 1000
    return {
      cpuPercent: ((cpu(last) - cpu(first)) / seconds) * 100,
      samples,
      upServers: upCount(last),
      probes,
      failureCodes,
      downReasons: reasons.reasons(),
    }
  } finally {
    inspector?.close()
    monitor.kill('SIGTERM')
    await exited
    await demo.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Every server came up and no probe failed with an error. A probe that timed out is judged in
 * the full run only: the quick one runs beside the whole suite, where a starved machine, not
 * the console, is what keeps 200 probes a second from answering in time.
 */
export function probeChecks(
  m: Pick<MonitorMeasurement, 'probes' | 'upServers' | 'failureCodes' | 'downReasons'>,
  servers: number,
  quick: boolean,
): Check[] {
  return [
    {
      name: 'probe-failures',
      description: `probes that failed with an error (every demo server stays up)${codesOf(m.failureCodes)}${m.probes.failed > 0 ? reasonsOf(m.downReasons) : ''}`,
      value: m.probes.failed,
      unit: 'count',
      target: '= 0',
      pass: m.probes.failed === 0 && m.upServers === servers,
    },
    {
      name: 'probe-timeouts',
      description: 'probes that timed out',
      value: m.probes.timedOut,
      unit: 'count',
      target: '= 0',
      ...(quick ? {} : { pass: m.probes.timedOut === 0 }),
    },
  ]
}

/** ` (servers went down: "…", "…")` when any did. */
const reasonsOf = (reasons: string[]): string =>
  reasons.length > 0
    ? ` (servers went down: ${reasons.map((r) => JSON.stringify(r)).join(', ')})`
    : ''

/** `: unreachable 3, protocol 1` when any probe failed with an error. */
const codesOf = (codes: Record<string, number>): string => {
  const named = Object.entries(codes).map(([code, count]) => `${code} ${count}`)
  return named.length > 0 ? `: ${named.join(', ')}` : ''
}

/** `rag-console monitor` over 200 demo servers: CPU and steady memory. */
export const monitorBenchmark: Benchmark = {
  name: 'monitor',
  async run({ quick }): Promise<BenchResult> {
    const plan = quick ? QUICK_PLAN : FULL_PLAN
    const m = await measureMonitor(plan)
    const slope = heapSlopePerHour(m.samples)
    const growth = heapGrowth(m.samples, plan.warmupMs)
    const checks: Check[] = [
      {
        name: 'cpu',
        description: `monitor process CPU, ${plan.servers} servers probed every ${plan.intervalMs / 1000} s`,
        value: m.cpuPercent,
        unit: '%',
        target: `< ${CPU_LIMIT_PERCENT} % of one core`,
        ...(quick ? {} : { pass: m.cpuPercent < CPU_LIMIT_PERCENT }),
      },
      {
        name: 'heap-growth',
        description: `heap after a full GC: median of the last third of the samples minus the first third, after ${plan.warmupMs / 1000} s of warm-up`,
        value: growth,
        unit: 'MB',
        target: `≤ ${HEAP_GROWTH_LIMIT_MB} MB`,
        ...(quick ? {} : { pass: growth <= HEAP_GROWTH_LIMIT_MB }),
      },
      ...probeChecks(m, plan.servers, quick),
    ]
    const at = (i: number) => m.samples[i]!
    return {
      name: this.name,
      description: `rag-console monitor with ${plan.servers} servers, probes every ${plan.intervalMs / 1000} s, ${plan.durationMs / 60_000} min`,
      metrics: [
        { name: 'CPU of one core', unit: '%', median: m.cpuPercent },
        { name: 'heap slope', unit: 'MB/h', median: slope },
        { name: 'heap at start', unit: 'MB', median: at(0).heapMB },
        { name: 'heap at end', unit: 'MB', median: at(m.samples.length - 1).heapMB },
        { name: 'RSS at start', unit: 'MB', median: at(0).rssMB },
        { name: 'RSS at end', unit: 'MB', median: at(m.samples.length - 1).rssMB },
        {
          name: 'probes seen',
          unit: 'count',
          median: m.probes.ok + m.probes.failed + m.probes.timedOut,
        },
      ],
      comparisons: [],
      checks,
      notes: [
        `One demo process serves the ${plan.servers} HTTP/SSE endpoints (all four network families); the monitor runs as \`rag-console --json monitor\` from out/main/cli.js, printing a line per probe into a pipe the benchmark reads. CPU comes from the monitor's own /metrics (process_cpu_seconds_total) over the whole measured span, which starts once every server is up and one interval passed. Memory is read over the DevTools protocol (the monitor runs with --inspect on 127.0.0.1): HeapProfiler.collectGarbage, then process.memoryUsage(), every ${plan.sampleEveryMs / 1000} s.`,
        `Heap after GC (MB) at ${m.samples.map((s) => `${Math.round(s.atMs / 1000)} s ${s.heapMB.toFixed(2)}`).join(', ')}; RSS ${m.samples.map((s) => s.rssMB.toFixed(0)).join(', ')} MB.`,
        quick
          ? 'Quick run: probes every second (15× the full rate) for 20 s; CPU and heap are reported, not judged.'
          : `Judged: CPU < ${CPU_LIMIT_PERCENT} % of one core, heap growth ≤ ${HEAP_GROWTH_LIMIT_MB} MB between the first and last thirds of the samples after ${plan.warmupMs / 60_000} min of warm-up.`,
      ],
    }
  },
}
