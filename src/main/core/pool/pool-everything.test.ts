import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ServerConfig } from '#shared/config/schema'
import {
  fixture,
  freePort,
  isAlive,
  liveServerConfig,
  textOf,
  useTestScope,
} from '#test/support/pool/helpers'

// @modelcontextprotocol/server-everything: the reference server of the MCP project, which this
// project did not write. Its HTTP modes listen on every interface, so they run with a preload
// that keeps them on 127.0.0.1.
const everything = join(
  dirname(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'),
  ),
  'dist/index.js',
)

const testPool = useTestScope().pool

async function launched(
  id: string,
  mode: 'sse' | 'streamableHttp',
  readyPattern: string,
): Promise<ServerConfig> {
  const port = await freePort()
  return liveServerConfig({
    id,
    transport: mode === 'sse' ? 'sse' : 'http',
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    timeoutMs: 10_000,
    launch: {
      command: process.execPath,
      args: ['--import', fixture('loopback-only.mjs'), everything, mode],
      env: { PORT: String(port) },
      readyPattern,
      readyTimeoutMs: 15_000,
    },
  })
}

describe('server-everything over every transport', () => {
  it.each([
    {
      transport: 'stdio',
      config: async () =>
        liveServerConfig({
          id: 'everything',
          command: process.execPath,
          args: [everything, 'stdio'],
          timeoutMs: 10_000,
        }),
    },
    { transport: 'sse', config: () => launched('everything', 'sse', 'Server is running on port') },
    {
      transport: 'streamable HTTP',
      config: () => launched('everything', 'streamableHttp', 'listening on port'),
    },
  ])('connects, lists tools, calls echo, pings and closes over $transport', async ({ config }) => {
    const { pool } = testPool()
    await pool.apply([await config()])
    const session = await pool.session('everything', { timeoutMs: 20_000 })
    expect(session.serverInfo?.name).toBeTruthy()
    expect(session.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']))

    const echo = await session.callTool(
      'echo',
      { message: 'hello everything' },
      { operation: 'call' },
    )
    expect(textOf(echo)).toMatch(/hello everything/)
    const sum = await session.callTool('get-sum', { a: 2, b: 40 }, { operation: 'call' })
    expect(textOf(sum)).toMatch(/42/)
    expect(await session.request('ping', undefined, { operation: 'ping' })).toEqual({})

    const pids = pool.pids()
    expect(pids.length).toBeGreaterThan(0)
    await pool.dispose()
    for (const pid of pids) expect(isAlive(pid)).toBe(false)
  })
})
