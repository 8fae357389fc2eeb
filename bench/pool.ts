import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { ServerConfig } from '#shared/config/schema'
import { EventBus } from '#core/events'
import { EnvSecretResolver } from '#test/support/pool/env-secrets'
import { createRedactor } from '#core/secrets/redactor'
import { liveServerConfig } from '#test/support/config/server-config'
import { ConnectionPool } from '#core/pool/pool'
import { listeningUrl, startChild } from '#test/support/process/start-child'
import { benchLayout, pin } from './affinity'
import {
  median,
  now,
  summarize,
  type Benchmark,
  type BenchResult,
  type Comparison,
  type Metric,
} from './harness'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const fixture = (name: string): string => resolve(root, 'src/test/fixtures/pool', name)

interface Variant {
  name: string
  transport: ServerConfig['transport']
  /** Arguments of http-server.mjs; absent for stdio. */
  httpArgs?: string[]
}

const VARIANTS: Variant[] = [
  { name: 'stdio', transport: 'stdio' },
  { name: 'sse', transport: 'sse', httpArgs: ['--transport', 'sse'] },
  { name: 'http (JSON replies)', transport: 'http', httpArgs: ['--transport', 'http', '--json'] },
  { name: 'http (SSE-stream replies)', transport: 'http', httpArgs: ['--transport', 'http'] },
]

/** The pool's own cost per call, as a ratio of medians to a bare SDK Client's call. */
const TARGET_RATIO = 1.05

const ECHO = { name: 'echo', arguments: { text: 'benchmark' } }

/** Starts http-server.mjs and resolves with its URL once it listens. */
async function startHttpServer(args: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const child = await startChild([fixture('http-server.mjs'), ...args], listeningUrl, 15_000)
  return { url: child.ready, stop: child.stop }
}

function bareTransport(variant: Variant, url: string | undefined): Transport {
  if (variant.transport === 'stdio') {
    return new StdioClientTransport({
      command: process.execPath,
      args: [fixture('stdio-server.mjs')],
      stderr: 'ignore',
    })
  }
  return variant.transport === 'sse'
    ? new SSEClientTransport(new URL(url!))
    : new StreamableHTTPClientTransport(new URL(url!))
}

function poolConfig(variant: Variant, url: string | undefined): ServerConfig {
  return liveServerConfig({
    id: 'bench',
    transport: variant.transport,
    timeoutMs: 15_000,
    ...(url ? { url } : { command: process.execPath, args: [fixture('stdio-server.mjs')] }),
  })
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = now()
  await fn()
  return now() - started
}

/** One side's sequential calls: wall time (ms) and the bench process's CPU time (µs) of each. */
interface Side {
  wall: number[]
  cpu: number[]
}

const side = (): Side => ({ wall: [], cpu: [] })

async function measured(fn: () => Promise<unknown>, into: Side): Promise<void> {
  const cpu = process.cpuUsage()
  into.wall.push(await timed(fn))
  const used = process.cpuUsage(cpu)
  into.cpu.push(used.user + used.system)
}

interface Samples {
  bare: Side
  pool: Side
  /** Per block: pool over bare, median wall time and total CPU time. */
  blockRatios: number[]
  cpuRatios: number[]
  bareBursts: number[]
  poolBursts: number[]
}

interface Plan {
  /** Fresh bare Client and pool per round: one stdio child can be faster than another. */
  rounds: number
  /** Too few calls to judge: report the ratio without a verdict. */
  quick: boolean
  /** Blocks per round, and interleaved call pairs per block. */
  blocks: number
  pairs: number
  bursts: number
}

/**
 * `BENCH_POOL_PROFILE=<variant>:<bare|pool>:<calls>` (e.g. `stdio:pool:3000`): runs only that
 * side of that variant, once, and prints its wall and CPU time per call, for a profiler to look
 * at one side alone (`node --cpu-prof`, `valgrind --tool=callgrind`; see bench/PROFILE.md).
 */
function profileSide(): { variant: string; side: 'bare' | 'pool'; calls: number } | undefined {
  const value = process.env.BENCH_POOL_PROFILE
  if (!value) return undefined
  const [variant, side, calls] = value.split(':')
  if (!variant || (side !== 'bare' && side !== 'pool') || !Number(calls)) {
    throw new Error(`BENCH_POOL_PROFILE=${value}: expected <variant>:<bare|pool>:<calls>`)
  }
  return { variant, side, calls: Number(calls) }
}

/** The profiled side alone: a warm-up, then its calls, timed in wall and CPU time. */
async function profileOneSide(name: string, call: () => Promise<unknown>, calls: number) {
  for (let i = 0; i < 200; i++) await call()
  const started = now()
  const cpu = process.cpuUsage()
  for (let i = 0; i < calls; i++) await call()
  const used = process.cpuUsage(cpu)
  const wall = (now() - started) / calls
  const cpuUs = (used.user + used.system) / calls
  process.stderr.write(`${name}: ${wall.toFixed(3)} ms/call, CPU ${cpuUs.toFixed(1)} µs/call\n`)
}

/**
 * Short blocks of strictly alternating calls, the side that goes first swapped every block: drift
 * in the machine's load hits both sides alike, and neither side always follows the other (a
 * server process just used answers faster). Each block gives its own ratio.
 */
async function blocks(
  bareCall: () => Promise<unknown>,
  poolCall: () => Promise<unknown>,
  plan: Plan,
  into: Samples,
): Promise<void> {
  for (let b = 0; b < plan.blocks; b++) {
    const bare = side()
    const pool = side()
    for (let i = 0; i < plan.pairs; i++) {
      if (b % 2 === 0) {
        await measured(bareCall, bare)
        await measured(poolCall, pool)
      } else {
        await measured(poolCall, pool)
        await measured(bareCall, bare)
      }
    }
    into.blockRatios.push(median(pool.wall) / median(bare.wall))
    into.cpuRatios.push(sum(pool.cpu) / sum(bare.cpu))
    into.bare.wall.push(...bare.wall)
    into.bare.cpu.push(...bare.cpu)
    into.pool.wall.push(...pool.wall)
    into.pool.cpu.push(...pool.cpu)
  }
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0)

/**
 * Each stdio side has a child of its own: both children go on the same CPU and the bench on the
 * others, so neither side's wake-ups cross cores more often than the other's. Unpinned, two
 * identical bare Clients measured 0.98–1.18 against each other; pinned, 0.99–1.00.
 */
function pinChildren(pids: (number | undefined)[], layout: Layout | undefined): boolean {
  if (!layout) return false
  return pids.every((pid) => pid !== undefined && pin(pid, layout.servers))
}

type Layout = ReturnType<typeof benchLayout>

/** One round: a new bare Client and a new pool, interleaved calls, then 100-call bursts. */
async function round(
  variant: Variant,
  url: string | undefined,
  plan: Plan,
  into: Samples,
  layout: Layout,
): Promise<boolean> {
  const client = new Client({ name: 'bench-bare', version: '1' })
  // With the redactor the app gives it: every protocol-log message is checked for secrets.
  const pool = new ConnectionPool({
    events: new EventBus(),
    secrets: new EnvSecretResolver(),
    redactor: createRedactor(),
  })
  try {
    const bare = bareTransport(variant, url)
    await client.connect(bare)
    await pool.apply([poolConfig(variant, url)])
    const session = await pool.session('bench')
    const pinned =
      variant.transport === 'stdio' &&
      pinChildren([(bare as StdioClientTransport).pid ?? undefined, ...pool.pids()], layout)
    const bareCall = () => client.callTool(ECHO)
    const poolCall = () => session.callTool(ECHO.name, ECHO.arguments, { operation: 'bench' })
    const profiled = profileSide()
    if (profiled) {
      const call = profiled.side === 'bare' ? bareCall : poolCall
      await profileOneSide(`${variant.name} ${profiled.side}`, call, profiled.calls)
      return pinned
    }
    for (let i = 0; i < 50; i++) {
      await bareCall()
      await poolCall()
    }
    await blocks(bareCall, poolCall, plan, into)
    const burst = (call: () => Promise<unknown>) =>
      timed(() => Promise.all(Array.from({ length: 100 }, call)))
    for (let i = 0; i < plan.bursts; i++) {
      into.bareBursts.push(await burst(bareCall))
      into.poolBursts.push(await burst(poolCall))
    }
    return pinned
  } finally {
    await client.close().catch(() => {})
    await pool.dispose()
  }
}

async function runVariant(
  variant: Variant,
  plan: Plan,
): Promise<{ metrics: Metric[]; comparisons: Comparison[]; pinned: boolean }> {
  const server = variant.httpArgs ? await startHttpServer(variant.httpArgs) : undefined
  const samples: Samples = {
    bare: side(),
    pool: side(),
    blockRatios: [],
    cpuRatios: [],
    bareBursts: [],
    poolBursts: [],
  }
  const layout = variant.transport === 'stdio' ? benchLayout() : undefined
  let pinned = true
  try {
    if (layout) pin(process.pid, layout.bench)
    for (let r = 0; r < plan.rounds; r++) {
      pinned = (await round(variant, server?.url, plan, samples, layout)) && pinned
    }
  } finally {
    if (layout) pin(process.pid, layout.before)
    await server?.stop()
  }
  const ratio = median(samples.pool.wall) / median(samples.bare.wall)
  const blockRatio = median(samples.blockRatios)
  const verdict = (value: number) => (plan.quick ? {} : { pass: value <= TARGET_RATIO })
  const target = `≤ ${TARGET_RATIO.toFixed(2)}`
  const blockCount = `${samples.blockRatios.length} blocks of ${plan.pairs} pairs`
  return {
    pinned: pinned && layout !== undefined,
    metrics: [
      summarize(`${variant.name}: bare SDK Client call`, 'ms', samples.bare.wall),
      summarize(`${variant.name}: console pool call`, 'ms', samples.pool.wall),
      summarize(`${variant.name}: bare SDK Client call, bench CPU`, 'µs', samples.bare.cpu),
      summarize(`${variant.name}: console pool call, bench CPU`, 'µs', samples.pool.cpu),
      summarize(
        `${variant.name}: 100 concurrent calls, bare Client (wall)`,
        'ms',
        samples.bareBursts,
      ),
      summarize(
        `${variant.name}: 100 concurrent calls, pool, 8 in flight (wall)`,
        'ms',
        samples.poolBursts,
      ),
    ],
    comparisons: [
      {
        name: `pool-call-${variant.name}`,
        description: `console pool call vs bare SDK Client call (${variant.name}), medians`,
        ratio,
        target,
        ...verdict(ratio),
      },
      {
        name: `pool-call-blocks-${variant.name}`,
        description: `console pool call vs bare SDK Client call (${variant.name}), median of per-block ratios (${blockCount})`,
        ratio: blockRatio,
        target,
        ...verdict(blockRatio),
      },
      {
        name: `pool-cpu-${variant.name}`,
        description: `bench process CPU per call, pool vs bare Client (${variant.name}), median of per-block ratios`,
        ratio: median(samples.cpuRatios),
      },
    ],
  }
}

/**
 * What the connection pool adds to a call: the same echo tool through a bare SDK Client and
 * through the pool (timeout, limiter, user context, fetch layers, measurement), per transport,
 * against the same server program in the same run; plus 100 concurrent calls.
 */
export const poolBenchmark: Benchmark = {
  name: 'pool',
  async run({ quick }): Promise<BenchResult> {
    const plan: Plan = quick
      ? { quick, rounds: 1, blocks: 2, pairs: 15, bursts: 1 }
      : { quick, rounds: 10, blocks: 10, pairs: 15, bursts: 1 }
    const metrics: Metric[] = []
    const comparisons: Comparison[] = []
    const pinned: string[] = []
    const profiled = profileSide()
    // One side alone gives no ratio to judge.
    if (profiled) Object.assign(plan, { rounds: 1, quick: true })
    for (const variant of VARIANTS) {
      if (profiled && !variant.name.startsWith(profiled.variant)) continue
      const result = await runVariant(variant, plan)
      metrics.push(...result.metrics)
      comparisons.push(...result.comparisons)
      if (result.pinned) pinned.push(variant.name)
    }
    return {
      name: 'pool',
      description: 'Connection pool cost per call versus a bare SDK Client, per transport',
      metrics,
      comparisons,
      notes: [
        `${plan.rounds} rounds, each with a fresh bare Client and pool (a fresh stdio child each): after a warm-up, ${plan.blocks} blocks of ${plan.pairs} interleaved sequential call pairs (the side that goes first swapped every block), then 100-call bursts ×${plan.bursts}.`,
        pinned.length > 0
          ? `CPU affinity (${pinned.join(', ')}): both sides' server processes on CPU ${benchLayout()?.servers}, the bench process on the others (restored afterwards).`
          : 'CPU affinity: not pinned (needs Linux, taskset and 2 cores).',
        'Bench CPU: user + system time of the bench process during each call (process.cpuUsage), the pool’s own work per call with the server’s excluded.',
        'The pool caps calls in flight per server at 8 by default, so its 100-call burst queues by design.',
      ],
    }
  },
}
