import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EventBus } from '#core/events'
import { EnvSecretResolver } from '#test/support/pool/env-secrets'
import { liveServerConfig } from '#test/support/config/server-config'
import { ConnectionPool } from '#core/pool/pool'
import { createRedactor } from '#core/secrets/redactor'
import { median, now, summarize, type Benchmark, type BenchResult } from './harness'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const SERVER = resolve(root, 'src/test/fixtures/pool/raw-stdio-server.mjs')

const SMALL = 1_000_000
const LARGE = 10_000_000
/** The server writes its reply in pieces of this size. */
const CHUNK = 16 * 1024
/** Ten times the bytes may cost ten times the time, plus a little: never the square. */
const TARGET_RATIO = 12

/**
 * One tool call through the pool to a stdio server whose reply is one line of 10 MB vs one of
 * 1 MB, in interleaved pairs on the same connection (the protocol log and redactor on, as in
 * the app): reading, parsing and checking a reply must grow linearly with its size, in wall
 * time and in the console's CPU time.
 */
export const stdioReplyBenchmark: Benchmark = {
  name: 'stdio-large-reply',
  async run({ quick }): Promise<BenchResult> {
    const pairs = quick ? 2 : 15
    const pool = new ConnectionPool({
      events: new EventBus(),
      secrets: new EnvSecretResolver(),
      redactor: createRedactor(),
    })
    try {
      await pool.apply([
        liveServerConfig({
          id: 'large',
          transport: 'stdio',
          timeoutMs: 120_000,
          command: process.execPath,
          args: [SERVER],
        }),
      ])
      const session = await pool.session('large')
      const small = { wall: [] as number[], cpu: [] as number[] }
      const large = { wall: [] as number[], cpu: [] as number[] }
      const call = async (bytes: number, into?: typeof small): Promise<void> => {
        const cpu = process.cpuUsage()
        const started = now()
        const result = await session.callTool(
          'large',
          { bytes, chunkBytes: CHUNK, everyMs: 0 },
          { operation: 'bench' },
        )
        const wall = now() - started
        const used = process.cpuUsage(cpu)
        const text = (result.content as Array<{ text?: string }>)[0]?.text
        if (text?.length !== bytes) throw new Error(`a ${bytes}-byte reply came back cut`)
        into?.wall.push(wall)
        into?.cpu.push((used.user + used.system) / 1000)
      }
      await call(SMALL) // warm-up: JIT and the first allocation of large strings
      for (let i = 0; i < pairs; i++) {
        // Alternate which size goes first, so neither always follows the other's garbage.
        if (i % 2 === 0) {
          await call(SMALL, small)
          await call(LARGE, large)
        } else {
          await call(LARGE, large)
          await call(SMALL, small)
        }
      }
      const ratio = median(large.wall) / median(small.wall)
      const cpuRatio = median(large.cpu) / median(small.cpu)
      return {
        name: this.name,
        description: `${pairs} interleaved pairs of stdio tool calls answered with one 1 MB and one 10 MB line`,
        metrics: [
          summarize('call with a 1 MB reply', 'ms', small.wall),
          summarize('call with a 10 MB reply', 'ms', large.wall),
          summarize('console CPU per call with a 1 MB reply', 'ms', small.cpu),
          summarize('console CPU per call with a 10 MB reply', 'ms', large.cpu),
        ],
        comparisons: [
          {
            name: 'large-reply-ratio',
            description: 'median call with a 10 MB reply vs with a 1 MB reply (stdio)',
            ratio,
            target: `≤ ${TARGET_RATIO}`,
            ...(quick ? {} : { pass: ratio <= TARGET_RATIO }),
          },
          {
            name: 'large-reply-cpu-ratio',
            description: 'median console CPU per call, 10 MB reply vs 1 MB reply (stdio)',
            ratio: cpuRatio,
            target: `≤ ${TARGET_RATIO}`,
            ...(quick ? {} : { pass: cpuRatio <= TARGET_RATIO }),
          },
        ],
        notes: [
          `The server (raw-stdio-server.mjs) writes each reply as one JSON line, its id last as the TypeScript SDK does, ${CHUNK / 1024} KiB per turn of its event loop as a streaming server would; a reader that scans its whole pending line again for every chunk it gets spends time in the square of the reply's size.`,
        ],
      }
    } finally {
      await pool.dispose()
    }
  },
}
