import { describe, expect, it } from 'vitest'
import {
  fixture,
  freePort,
  isAlive,
  liveServerConfig,
  textOf,
  useTestScope,
} from '#test/support/pool/helpers'
import { waitFor } from '#test/support/process/wait-for'

const testPool = useTestScope().pool

/** An HTTP fixture server the pool launches itself on a free loopback port. */
async function launchedHttp(id: string, readyPattern?: string, extraArgs: string[] = []) {
  const port = await freePort()
  return liveServerConfig({
    id,
    transport: 'http',
    url: `http://127.0.0.1:${port}/mcp`,
    launch: {
      command: process.execPath,
      args: [fixture('http-server.mjs'), '--port', String(port), '--json', ...extraArgs],
      ...(readyPattern ? { readyPattern } : {}),
      readyTimeoutMs: 10_000,
    },
  })
}

describe('launched servers', () => {
  it('starts the command, waits for its readyPattern, connects, and keeps its output', async () => {
    const { pool } = testPool()
    await pool.apply([await launchedHttp('local', 'listening on')])
    const session = await pool.session('local')
    const result = await session.callTool('echo', { text: 'launched' }, { operation: 'call' })
    expect(textOf(result)).toBe('launched')
    expect(
      pool.log('local').some((l) => l.stream === 'launch' && /listening on/.test(l.text)),
    ).toBe(true)
  })

  it('waits for the URL port when there is no readyPattern', async () => {
    const { pool } = testPool()
    await pool.apply([await launchedHttp('local')])
    const session = await pool.session('local')
    expect(session.tools.map((t) => t.name)).toContain('echo')
  })

  it('stops the launched server with the pool', async () => {
    const { pool } = testPool()
    await pool.apply([await launchedHttp('local', 'listening on')])
    await pool.session('local')
    const [pid] = pool.pids()
    expect(isAlive(pid!)).toBe(true)
    await pool.dispose()
    expect(isAlive(pid!)).toBe(false)
  })

  it('reports a command that exits before it is ready, with its last output', async () => {
    const { pool, waitForState } = testPool()
    const config = liveServerConfig({
      id: 'broken',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      launch: {
        command: process.execPath,
        args: ['-e', 'console.error("boom: missing model file"); process.exit(3)'],
        readyPattern: 'never',
      },
    })
    await pool.apply([config])
    const down = await waitForState('broken', 'down')
    expect(down).toMatchObject({ lastError: { code: 'unreachable' } })
    expect((down as { lastError: { message: string } }).lastError.message).toMatch(
      /exited \(code 3\) before it was ready.*boom: missing model file/,
    )
  })

  it('relaunches a launched server that dies', async () => {
    const { pool, waitForState } = testPool()
    await pool.apply([await launchedHttp('local', 'listening on')])
    await pool.session('local')
    const [pid] = pool.pids()
    process.kill(pid!, 'SIGKILL')
    await waitForState('local', 'down')
    await waitFor(
      () => pool.pids().some((p) => p !== pid) && pool.status('local').state === 'ready',
    )
    const result = await pool.callTool(
      'local',
      'echo',
      { text: 'relaunched' },
      { operation: 'call' },
    )
    expect(textOf(result)).toBe('relaunched')
  })

  it('gives up at readyTimeoutMs on a readyPattern that backtracks catastrophically, while the match runs on', async () => {
    const { pool, waitForState } = testPool()
    const config = liveServerConfig({
      id: 'redos',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      launch: {
        command: process.execPath,
        // Matching (a+)+$ against this line takes 2^28 steps: tens of seconds on one thread.
        args: ['-e', `console.log('${'a'.repeat(28)}!'); setInterval(() => {}, 1000)`],
        readyPattern: '^(a+)+$',
        readyTimeoutMs: 1500,
      },
    })
    await pool.apply([config])
    const down = await waitForState('redos', 'down')
    // The deadline fired while the line was still being matched, so the match did not hold this
    // thread: on it, the deadline's timer could only have run once the match had ended, and the
    // launch would then name a line that did not match instead.
    expect(down).toMatchObject({ lastError: { code: 'timeout' } })
    expect((down as { lastError: { message: string } }).lastError.message).toMatch(
      /readyPattern .* was still matching a line/,
    )
  })
})
