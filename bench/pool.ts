import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { ServerConfig } from '../src/shared/config/schema'
import { EventBus } from '../src/main/core/events'
import { EnvSecretResolver } from '../src/main/core/pool/fixtures/env-secrets'
import { serverConfig } from '../src/main/core/pool/fixtures/server-config'
import { ConnectionPool } from '../src/main/core/pool/pool'
import { listeningUrl, startChild } from '../src/test/start-child'
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
const fixture = (name: string): string => resolve(root, 'src/main/core/pool/fixtures', name)

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
  return serverConfig({
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

interface Samples {
  bare: number[]
  pool: number[]
  bareBursts: number[]
  poolBursts: number[]
}

interface Plan {
  /** Fresh bare Client and pool per round: one stdio child can be faster than another. */
  rounds: number
  /** Too few calls to judge: report the ratio without a verdict. */
  quick: boolean
  iterations: number
  bursts: number
}

/**
 * `BENCH_POOL_PROFILE=<variant>:<bare|pool>:<calls>` (e.g. `stdio:pool:3000`): runs only that
 * side of that variant, once, and prints its wall and CPU time per call, for a profiler to look
 * at one side alone (`node --cpu-prof`, `valgrind --tool=callgrind`; see docs/benchmarks.md).
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

/** One round: a new bare Client and a new pool, interleaved calls, then 100-call bursts. */
async function round(variant: Variant, url: string | undefined, plan: Plan, into: Samples) {
  const client = new Client({ name: 'bench-bare', version: '1' })
  const pool = new ConnectionPool({ events: new EventBus(), secrets: new EnvSecretResolver() })
  try {
    await client.connect(bareTransport(variant, url))
    await pool.apply([poolConfig(variant, url)])
    const session = await pool.session('bench')
    const bareCall = () => client.callTool(ECHO)
    const poolCall = () => session.callTool(ECHO.name, ECHO.arguments, { operation: 'bench' })
    const profiled = profileSide()
    if (profiled) {
      const call = profiled.side === 'bare' ? bareCall : poolCall
      return await profileOneSide(`${variant.name} ${profiled.side}`, call, profiled.calls)
    }
    for (let i = 0; i < Math.min(50, plan.iterations); i++) {
      await bareCall()
      await poolCall()
    }
    // Strictly alternating: drift in the machine's load hits both sides alike, and every call
    // follows one to the other side (a server process just used answers faster).
    for (let i = 0; i < plan.iterations; i++) {
      into.bare.push(await timed(bareCall))
      into.pool.push(await timed(poolCall))
    }
    const burst = (call: () => Promise<unknown>) =>
      timed(() => Promise.all(Array.from({ length: 100 }, call)))
    for (let i = 0; i < plan.bursts; i++) {
      into.bareBursts.push(await burst(bareCall))
      into.poolBursts.push(await burst(poolCall))
    }
  } finally {
    await client.close().catch(() => {})
    await pool.dispose()
  }
}

async function runVariant(
  variant: Variant,
  plan: Plan,
): Promise<{ metrics: Metric[]; comparison: Comparison }> {
  const server = variant.httpArgs ? await startHttpServer(variant.httpArgs) : undefined
  const samples: Samples = { bare: [], pool: [], bareBursts: [], poolBursts: [] }
  try {
    for (let r = 0; r < plan.rounds; r++) await round(variant, server?.url, plan, samples)
  } finally {
    await server?.stop()
  }
  const ratio = median(samples.pool) / median(samples.bare)
  return {
    metrics: [
      summarize(`${variant.name}: bare SDK Client call`, 'ms', samples.bare),
      summarize(`${variant.name}: console pool call`, 'ms', samples.pool),
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
    comparison: {
      name: `pool-call-${variant.name}`,
      description: `console pool call vs bare SDK Client call (${variant.name}), medians`,
      ratio,
      target: `≤ ${TARGET_RATIO.toFixed(2)}`,
      ...(plan.quick ? {} : { pass: ratio <= TARGET_RATIO }),
    },
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
      ? { quick, rounds: 1, iterations: 30, bursts: 1 }
      : { quick, rounds: 10, iterations: 150, bursts: 1 }
    const metrics: Metric[] = []
    const comparisons: Comparison[] = []
    const profiled = profileSide()
    // One side alone gives no ratio to judge.
    if (profiled) Object.assign(plan, { rounds: 1, quick: true })
    for (const variant of VARIANTS) {
      if (profiled && !variant.name.startsWith(profiled.variant)) continue
      const result = await runVariant(variant, plan)
      metrics.push(...result.metrics)
      comparisons.push(result.comparison)
    }
    return {
      name: 'pool',
      description: 'Connection pool cost per call versus a bare SDK Client, per transport',
      metrics,
      comparisons,
      notes: [
        `${plan.rounds} rounds, each with a fresh bare Client and pool (a fresh stdio child each): ${plan.iterations} interleaved sequential calls per side after a warm-up, then 100-call bursts ×${plan.bursts}.`,
        'The pool caps calls in flight per server at 8 by default, so its 100-call burst queues by design.',
      ],
    }
  },
}
