import {
  DEMO_KEY_ENV,
  FAMILIES,
  demoEntry,
  endpointUrls,
  planEndpoints,
  stdioTarget,
} from '#demo/endpoints'
import { startCore, type LiveCore } from '#test/support/core/live-core'
import { startChild, type Child } from '#test/support/process/start-child'
import { actAsBenchUser, demoScript, demoSelection, searchErrors, whenReady } from './demo-servers'
import { editServers, type EditOutcome } from './edits'
import {
  FanoutTimeline,
  describeTimelines,
  processCpuMs,
  type SearchTimeline,
} from './fanout-timeline'
import { pickFanout } from './fanout-pick'
import { FanoutProfile } from './fanout-profile'
import { now } from './harness'
import { sampleMemory, type MemorySample } from './memory-worker'
import { workerPlan } from './worker'

/** Runs {@link runScaleWorker} instead of the benchmarks (the scale benchmark's child). */
export const SCALE_WORKER_FLAG = '--scale-worker'

/** Generous: on a loaded shared machine, spawning 20 stdio children alone takes seconds. */
const CONNECT_ALL_TIMEOUT_MS = 300_000

/** What the parent asks the child to do (JSON after the flag). */
export interface ScalePlan {
  /** Demo processes, each serving `endpointsEach` HTTP/SSE servers. */
  processes: number
  /**
   * Backend latencies (ms) cycled over each process's endpoints, so every process serves every
   * class: the slowest servers' replies do not queue behind one demo process's CPU.
   */
  latencies: number[]
  endpointsEach: number
  /** rag-tools-v1 stdio servers, answering after the first latency. */
  stdio: number
  /** Single-server edits, then edits of `bulk` servers at once. */
  singleEdits: number
  bulkEdits: number
  bulk: number
  /** Servers in the fan-out search, and how many times it runs (after 2 warm-ups). */
  fanout: number
  searches: number
}

/** The child's answer, one JSON line on stdout. */
export interface ScaleReport {
  servers: number
  /** Registry of every server applied → every server connected. */
  connectAllMs: number
  /** The first server alone, connected in the same console before. */
  connectOneMs: number
  /** When each server was ready, from the moment the registry was applied. */
  connectEach: { id: string; ms: number }[]
  empty: MemorySample
  connected: MemorySample
  single: EditOutcome[]
  bulk: EditOutcome[]
  /** End to end, per search: over `fanout` servers, and over its slowest server alone. */
  fanoutMs: number[]
  aloneMs: number[]
  /** The console process's own CPU time (user + system) per search, same pairs. */
  fanoutCpuMs: number[]
  aloneCpuMs: number[]
  slowest: string
  /** How many servers of each family the fan-out covers. */
  fanoutMix: string
  errors: string[]
}

type DemoProcess = Child<{ urls: Map<string, string>; docHost: string }>

async function startDemos(plan: ScalePlan): Promise<DemoProcess[]> {
  return Promise.all(
    Array.from({ length: plan.processes }, () =>
      startChild(
        [
          demoScript(),
          'all',
          ...['--port-base', '0', '--endpoints', String(plan.endpointsEach)],
          ...['--latency', plan.latencies.join(','), '--rate-limit', '1000000000'],
        ],
        (lines) => {
          const ready = lines.map((line) => /^ready (\S+?)\/?$/.exec(line)?.[1]).find(Boolean)
          return ready ? { urls: endpointUrls(lines), docHost: ready } : undefined
        },
        60_000,
      ),
    ),
  )
}

const familyOf = (id: string) => FAMILIES.find((family) => id.startsWith(`${family}-`))!

/**
 * Every endpoint of every demo process under a registry-wide id (`<family>-<n>`), then the
 * stdio servers; `latency` says how long each one's tools take.
 */
function registryOf(demos: DemoProcess[], plan: ScalePlan) {
  const registry: Record<string, Record<string, unknown>> = {}
  const latency = new Map<string, number>()
  const origins = new Map<string, string>()
  // Each process planned its endpoints the same way: the plan says each one's latency.
  const planned = new Map(
    planEndpoints(plan.endpointsEach, 0, plan.latencies).map((one) => [one.id, one.latencyMs]),
  )
  let n = 0
  for (const demo of demos) {
    for (const [id, url] of demo.ready.urls) {
      const family = familyOf(id)
      const key = `${family}-${n++}`
      registry[key] = demoEntry(family, { url })
      latency.set(key, planned.get(id)!)
      origins.set(new URL(url).origin, key)
    }
  }
  const stdioLatency = plan.latencies[0]!
  const docHost = demos[0]!.ready.docHost
  const target = stdioTarget(process.execPath, demoScript(), docHost, stdioLatency)
  for (let i = 0; i < plan.stdio; i++) {
    const key = `rag-tools-stdio-${n++}`
    registry[key] = demoEntry('rag-tools-stdio', target)
    latency.set(key, stdioLatency)
  }
  return { registry, latency, origins }
}

async function search(live: LiveCore, searchId: string, ids: string[], errors: string[]) {
  const cpu = process.cpuUsage()
  const started = now()
  const result = await live.core.services.search.run({
    searchId,
    query: 'vpn setup',
    topK: 10,
    selection: demoSelection(ids),
  })
  const elapsed = now() - started
  const { user, system } = process.cpuUsage(cpu)
  errors.push(...searchErrors(result, ids))
  return { elapsed, cpuMs: (user + system) / 1000 }
}

/**
 * The scale benchmark's child: demo processes serving many endpoints plus stdio children, one
 * console (file watching on) given the whole registry at once; then edits and a wide fan-out.
 */
export async function runScaleWorker(): Promise<number> {
  const plan = workerPlan<ScalePlan>(SCALE_WORKER_FLAG)
  const demos = await startDemos(plan)
  try {
    const { registry, latency, origins } = registryOf(demos, plan)
    const ids = Object.keys(registry)
    const live = await startCore({}, { env: { ...DEMO_KEY_ENV }, watch: true })
    try {
      actAsBenchUser(live.core)
      const empty = sampleMemory()
      // Baseline: one server of the same registry connecting alone.
      const one = ids[0]!
      let started = now()
      await live.rewrite({ [one]: registry[one] })
      await whenReady(live.core, [one])
      const connectOneMs = now() - started
      await live.rewrite({})
      const readyAt = new Map<string, number>()
      const offStatus = live.core.events.on('server:status', ({ server, status }) => {
        if (status.state === 'ready' && !readyAt.has(server)) readyAt.set(server, now())
      })
      started = now()
      await live.rewrite(registry)
      await whenReady(live.core, ids, CONNECT_ALL_TIMEOUT_MS)
      const connectAllMs = now() - started
      offStatus()
      const connectEach = ids.map((id) => ({ id, ms: (readyAt.get(id) ?? now()) - started }))
      const connected = sampleMemory()
      const single: EditOutcome[] = []
      for (let i = 0; i < plan.singleEdits; i++) {
        const edited = [ids[(i * 7) % ids.length]!]
        single.push(
          await editServers(live, registry, edited, { stamp: i + 1, atomic: i % 2 === 0 }),
        )
      }
      const bulk: EditOutcome[] = []
      for (let i = 0; i < plan.bulkEdits; i++) {
        // A block of neighbours: every family, each time another block.
        const edited = Array.from(
          { length: plan.bulk },
          (_, k) => ids[(i * plan.bulk + k) % ids.length]!,
        )
        bulk.push(await editServers(live, registry, edited, { stamp: 1000 + i, atomic: true }))
      }
      const fanout = pickFanout(ids, plan.fanout, familyOf)
      const fanoutMix = FAMILIES.map(
        (family) => `${fanout.filter((id) => familyOf(id) === family).length} ${family}`,
      ).join(', ')
      const slowest = fanout.reduce((a, b) => (latency.get(b)! > latency.get(a)! ? b : a))
      await live.core.services.discovery.run()
      const errors: string[] = []
      const fanoutMs: number[] = []
      const aloneMs: number[] = []
      const fanoutCpuMs: number[] = []
      const aloneCpuMs: number[] = []
      // SCALE_TIMELINE=1: where a fan-out's time goes, printed on stderr (not in the report).
      const timeline = process.env.SCALE_TIMELINE
        ? new FanoutTimeline(live.core, origins, latency)
        : undefined
      const timelines: SearchTimeline[] = []
      const aloneTimelines: SearchTimeline[] = []
      const demoCpu = () => demos.reduce((total, demo) => total + processCpuMs(demo.pid), 0)
      let demoCpuBefore = 0
      // SCALE_CPU_PROF=<file>: a CPU profile of the measured searches (stderr: top functions).
      const profile = process.env.SCALE_CPU_PROF
        ? new FanoutProfile(process.env.SCALE_CPU_PROF, 20)
        : undefined
      for (let i = 0; i < plan.searches + 2; i++) {
        if (i === 2 && timeline) demoCpuBefore = demoCpu()
        if (i === 2) await profile?.start()
        timeline?.begin()
        profile?.mark()
        const all = await search(live, `scale-fanout-${i}`, fanout, errors)
        const allTimeline = timeline?.end()
        timeline?.begin()
        const one = await search(live, `scale-alone-${i}`, [slowest], errors)
        const oneTimeline = timeline?.end()
        if (i < 2) continue // warm-up
        if (allTimeline && oneTimeline) {
          timelines.push(allTimeline)
          aloneTimelines.push(oneTimeline)
        }
        fanoutMs.push(all.elapsed)
        aloneMs.push(one.elapsed)
        fanoutCpuMs.push(all.cpuMs)
        aloneCpuMs.push(one.cpuMs)
      }
      if (profile) process.stderr.write(`${(await profile.stop()).join('\n')}\n`)
      if (timeline) {
        const remote = new Set(origins.values())
        const served = plan.searches * (fanout.filter((id) => remote.has(id)).length + 1)
        timeline.dispose()
        process.stderr.write(
          [
            'fan-out timeline:',
            ...describeTimelines(timelines),
            'slowest alone:',
            ...describeTimelines(aloneTimelines),
            `demo processes' CPU per HTTP/SSE reply: ${((demoCpu() - demoCpuBefore) / served).toFixed(2)} ms`,
            '',
          ].join('\n'),
        )
      }
      const report: ScaleReport = {
        servers: ids.length,
        connectAllMs,
        connectOneMs,
        connectEach,
        empty,
        connected,
        single,
        bulk,
        fanoutMs,
        aloneMs,
        fanoutCpuMs,
        aloneCpuMs,
        slowest,
        fanoutMix,
        errors,
      }
      process.stdout.write(`${JSON.stringify(report)}\n`)
    } finally {
      await live.close()
    }
  } finally {
    await Promise.all(demos.map((demo) => demo.stop()))
  }
  return 0
}
