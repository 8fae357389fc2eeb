import { describe, expect, it } from 'vitest'
import type { ConsoleError } from '#shared/errors'
import {
  fixture,
  isAlive,
  rejection,
  liveServerConfig,
  stdioFixture,
  textOf,
  useTestScope,
} from '#test/support/pool/helpers'
import { waitFor } from '#test/support/process/wait-for'
import { NEVER_MS, SAFETY_NET_MS } from '#test/support/process/limits'

const testPool = useTestScope().pool

describe('pool over stdio', () => {
  it('connects, lists the tools and calls one', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
    const session = await pool.session('kb')
    expect(session.tools.map((t) => t.name)).toContain('echo')
    expect(session.serverInfo).toMatchObject({ name: 'stdio-fixture', version: '1.2.3' })
    const result = await session.callTool('echo', { text: 'hi' }, { operation: 'call' })
    expect(textOf(result)).toBe('hi')
    expect(pool.status('kb').state).toBe('ready')
  })

  it('keeps the stderr of the child in the server log', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
    await pool.session('kb')
    const lines = await waitFor(() =>
      pool.log('kb').some((l) => l.stream === 'stderr') ? pool.log('kb') : undefined,
    )
    expect(lines.find((l) => l.stream === 'stderr')?.text).toMatch(/fixture stdio server started/)
  })

  it('tolerates log lines on stdout and keeps them in the log', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('noisy', 'stdio-server.mjs', ['--stdout-noise'])])
    const session = await pool.session('noisy')
    const result = await session.callTool('echo', { text: 'ok' }, { operation: 'call' })
    expect(textOf(result)).toBe('ok')
    expect(pool.log('noisy').some((l) => l.stream === 'stdout' && /not JSON/.test(l.text))).toBe(
      true,
    )
  })

  it('passes resolved env secrets to the child', async () => {
    const { pool } = testPool({}, { KB_TOKEN: 's3cr3t' })
    const config = {
      ...stdioFixture('kb', 'stdio-server.mjs'),
      env: { KB_TOKEN: '${env:KB_TOKEN}' },
    }
    await pool.apply([config])
    const result = await pool.callTool('kb', 'env', { name: 'KB_TOKEN' }, { operation: 'call' })
    expect(textOf(result)).toBe('s3cr3t')
  })

  it('waits in action_required naming a missing secret, and recovers on reconnect once set', async () => {
    const { pool, secrets, waitForState } = testPool()
    const config = {
      ...stdioFixture('kb', 'stdio-server.mjs'),
      env: { KB_TOKEN: '${env:KB_TOKEN}' },
    }
    await pool.apply([config])
    const status = await waitForState('kb', 'action_required')
    // An environment variable, not a keychain secret: nothing to set in Config → Secrets.
    expect(status).toMatchObject({ missingEnv: ['KB_TOKEN'] })
    expect(status).not.toHaveProperty('missingSecrets')
    const error = await rejection(pool.callTool('kb', 'echo', { text: 'x' }, { operation: 'call' }))
    expect(error.code).toBe('action_required')
    expect(error.message).toMatch(/KB_TOKEN/)
    expect(error.message).toMatch(/restart the console/)
    expect(error.message).not.toMatch(/Secrets/)

    secrets.env.KB_TOKEN = 'now-set'
    const after = await pool.reconnect('kb')
    expect(after.status.state).toBe('ready')
  })

  it('reports a tool error as a resolved result and counts it in health', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
    const result = await pool.callTool('kb', 'fail', {}, { operation: 'search' })
    expect(result.isError).toBe(true)
    const [health] = pool.health('kb')
    expect(health!.operations.find((o) => o.operation === 'search')?.errors).toEqual({
      tool_error: 1,
    })
  })

  it('fails a call with config when the command does not exist', async () => {
    const { pool, waitForState } = testPool()
    await pool.apply([{ ...stdioFixture('nope', 'x.mjs'), command: '/nonexistent/server-binary' }])
    const status = await waitForState('nope', 'action_required')
    expect(status).toMatchObject({ lastError: { code: 'config' } })
    expect((status as { reason: string }).reason).toMatch(/command not found/)
  })

  it('names a missing working directory instead of calling the command not found', async () => {
    const { pool, waitForState } = testPool()
    const cwd = '/nonexistent/server-folder'
    await pool.apply([{ ...stdioFixture('nowhere', 'stdio-server.mjs'), cwd }])
    const status = await waitForState('nowhere', 'action_required')
    expect(status).toMatchObject({ lastError: { code: 'config' } })
    const { reason } = status as { reason: string }
    expect(reason).toContain(`working directory ${cwd} does not exist`)
    expect(reason).toContain('"cwd"')
    expect(reason).not.toMatch(/command not found/)
  })
})

describe('stdio faults', () => {
  it('rejects an in-flight call when the child is killed -9, for the exit and not a reply or a timeout, then restarts it', async () => {
    const { pool, statuses, waitForState } = testPool()
    await pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
    await pool.session('kb')
    const [pid] = pool.pids()
    // The server never answers and the call times out after the safety net: only the exit can
    // end it while the test runs.
    const call = pool.callTool('kb', 'sleep', { ms: NEVER_MS }, { operation: 'search' })
    await waitFor(async () => {
      const stats = JSON.parse(
        textOf(await pool.callTool('kb', 'stats', {}, { operation: 'call' })),
      )
      return stats.inFlight === 1
    })
    process.kill(pid!, 'SIGKILL')
    const error = await rejection(call)
    // The exit ended it: a reply would have resolved it, a timeout would say `timeout`.
    expect(error.code).toBe('unreachable')
    expect(error.origin).toBe('local')
    expect(error.message).toMatch(/SIGKILL/)

    await waitForState('kb', 'ready')
    const states = statuses.filter((s) => s.server === 'kb').map((s) => s.status.state)
    expect(states.slice(states.lastIndexOf('down'))).toEqual(['down', 'connecting', 'ready'])
    expect(pool.pids()[0]).not.toBe(pid)
    const result = await pool.callTool('kb', 'echo', { text: 'back' }, { operation: 'call' })
    expect(textOf(result)).toBe('back')
  })

  it('kills the child of a connect whose initialize fails', async () => {
    const { pool, waitForState } = testPool()
    await pool.apply([
      { ...stdioFixture('stuck', 'raw-stdio-server.mjs', ['--hang-initialize']), timeoutMs: 300 },
    ])
    const down = await waitForState('stuck', 'down')
    expect(down).toMatchObject({ lastError: { code: 'timeout', origin: 'local' } })
    const line = pool.log('stuck').find((l) => /raw stdio server pid/.test(l.text))
    const pid = Number(/pid (\d+)/.exec(line!.text)![1])
    await waitFor(() => !isAlive(pid), 'the child to be gone')
  })

  it('leaves no child process alive after dispose', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('a', 'stdio-server.mjs'), stdioFixture('b', 'stdio-server.mjs')])
    await Promise.all([pool.session('a'), pool.session('b')])
    const pids = pool.pids()
    expect(pids).toHaveLength(2)
    await pool.dispose()
    for (const pid of pids) expect(isAlive(pid)).toBe(false)
  })

  it('stops what a wrapper command started when the pool is disposed', async () => {
    const { pool } = testPool()
    // The server outlives its stdin, and sh does not pass signals on: only a tree kill works.
    const script = `"${process.execPath}" "${fixture('stdio-server.mjs')}" --linger; true`
    await pool.apply([
      liveServerConfig({ id: 'wrapped', command: '/bin/sh', args: ['-c', script] }),
    ])
    await pool.session('wrapped')
    const line = await waitFor(() =>
      pool.log('wrapped').find((l) => /fixture stdio server started, pid/.test(l.text)),
    )
    const server = Number(/pid (\d+)/.exec(line.text)![1])
    const [wrapper] = pool.pids()
    expect(server).not.toBe(wrapper)
    await pool.dispose()
    expect(isAlive(wrapper!)).toBe(false)
    await waitFor(() => !isAlive(server), 'the wrapped server to stop')
  })

  it('times out a hung call without touching the other servers', async () => {
    const { pool } = testPool()
    await pool.apply([
      stdioFixture('hung', 'raw-stdio-server.mjs'),
      stdioFixture('fine', 'stdio-server.mjs'),
    ])
    const [hung, fine] = await Promise.allSettled([
      pool.callTool('hung', 'hang', {}, { operation: 'search', timeoutMs: 300 }),
      pool.callTool('fine', 'echo', { text: 'fine' }, { operation: 'search' }),
    ])
    expect(hung.status).toBe('rejected')
    const error = (hung as PromiseRejectedResult).reason as ConsoleError
    expect(error.code).toBe('timeout')
    expect(error.origin).toBe('local')
    expect(error.message).toMatch(/300 ms/)
    expect(fine.status).toBe('fulfilled')
    expect(pool.status('fine').state).toBe('ready')
  })

  it('caps the calls in flight per server', async () => {
    const { pool } = testPool({ maxConcurrentCalls: 3 })
    await pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
    await Promise.all(
      Array.from({ length: 10 }, () =>
        pool.callTool('kb', 'sleep', { ms: 30 }, { operation: 'search' }),
      ),
    )
    const stats = JSON.parse(textOf(await pool.callTool('kb', 'stats', {}, { operation: 'call' })))
    expect(stats.maxInFlight).toBe(3)
  })

  it('cancels a call through its signal and tells the server', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
    const stats = async () =>
      JSON.parse(textOf(await pool.callTool('kb', 'stats', {}, { operation: 'call' })))
    const controller = new AbortController()
    // Never answered: only the abort can end it.
    const call = pool.callTool(
      'kb',
      'sleep',
      { ms: NEVER_MS },
      { operation: 'search', signal: controller.signal },
    )
    await waitFor(async () => (await stats()).inFlight === 1)
    controller.abort()
    const error = await rejection(call)
    expect(error.code).toBe('cancelled')
    expect(error.origin).toBe('local')
    await waitFor(async () => (await stats()).cancelled === 1)
  })
})

describe('large stdio replies', () => {
  it('reads a 10 MB reply whole', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('raw', 'raw-stdio-server.mjs')])
    const result = await pool.callTool('raw', 'large', { bytes: 10e6 }, { operation: 'call' })
    expect(textOf(result)).toHaveLength(10e6)
  })

  it('fails a call whose reply is over the message limit at once, saying so', async () => {
    const { pool } = testPool({ maxMessageBytes: 1024 * 1024 })
    await pool.apply([stdioFixture('raw', 'raw-stdio-server.mjs')])
    const error = await rejection(
      pool.callTool(
        'raw',
        'large',
        { bytes: 3e6 },
        { operation: 'call', timeoutMs: SAFETY_NET_MS },
      ),
    )
    expect(error.code).toBe('protocol')
    expect(error.message).toMatch(/larger than 1 MB.*the most the console reads/)
    const result = await pool.callTool('raw', 'echo', { text: 'after' }, { operation: 'call' })
    expect(textOf(result)).toBe('after')
  })

  it('drops the rest of a reply to a call that timed out instead of parsing it', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('raw', 'raw-stdio-server.mjs')])
    await pool.session('raw') // connected: the call's 150 ms are the call's alone
    const slow = { bytes: 8e6, chunkBytes: 128 * 1024, everyMs: 5 }
    const error = await rejection(
      pool.callTool('raw', 'large', slow, { operation: 'call', timeoutMs: 150 }),
    )
    expect(error.code).toBe('timeout')
    const note = await waitFor(
      () => pool.log('raw').find((l) => /dropped the rest of a reply/.test(l.text)),
      'the note about the dropped reply',
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; log: ${JSON.stringify(pool.log('raw'))}`)
    })
    expect(note.text).toMatch(/request \d+, which timed out or was cancelled/)
    expect(pool.log('raw').some((l) => /unusable reply/.test(l.text))).toBe(false)
    const result = await pool.callTool('raw', 'echo', { text: 'after' }, { operation: 'call' })
    expect(textOf(result)).toBe('after')
  })
})

describe('stdio protocol repairs', () => {
  it('tolerates replies without "jsonrpc" and with extra top-level keys', async () => {
    const { pool } = testPool()
    await pool.apply([
      stdioFixture('raw', 'raw-stdio-server.mjs', ['--no-jsonrpc', '--extra-keys']),
    ])
    const result = await pool.callTool('raw', 'echo', { text: 'bent' }, { operation: 'call' })
    expect(textOf(result)).toBe('bent')
    const notes = pool
      .log('raw')
      .filter((l) => l.stream === 'pool')
      .map((l) => l.text)
    expect(notes.some((n) => /jsonrpc/.test(n))).toBe(true)
    expect(notes.some((n) => /served_by/.test(n))).toBe(true)
  })

  it('fails a malformed reply at once as a protocol error from the server', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('raw', 'raw-stdio-server.mjs', ['--malformed-tool'])])
    const error = await rejection(pool.callTool('raw', 'broken', {}, { operation: 'call' }))
    // `protocol`, not `timeout`: the malformed reply itself failed the call.
    expect(error.code).toBe('protocol')
    expect(error.origin).toBe('server')
  })

  it('talks to a server that rejects initialize without the handshake', async () => {
    const { pool } = testPool()
    await pool.apply([stdioFixture('raw', 'raw-stdio-server.mjs', ['--reject-initialize'])])
    const session = await pool.session('raw')
    expect(session.tools.map((t) => t.name)).toContain('echo')
    const result = await session.callTool('echo', { text: 'no handshake' }, { operation: 'call' })
    expect(textOf(result)).toBe('no handshake')
    expect(pool.log('raw').some((l) => /without the handshake/.test(l.text))).toBe(true)
  })
})
