import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventMap } from '#shared/ipc/contract'
import { dispatch } from '../api/dispatch'
import { createHandlers, type Handlers } from '../api/handlers'
import { Core } from '../core'
import { fixture, isAlive, stdioFixture, TEST_POOL_OPTIONS } from '#test/support/pool/helpers'
import { waitFor } from '#test/support/process/wait-for'

let dataDir: string
let core: Core
let handlers: Handlers

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pool-ipc-'))
  core = await Core.create({ dataDir, env: {}, watch: false, pool: TEST_POOL_OPTIONS })
  handlers = createHandlers(core)
})

afterEach(async () => {
  await core.dispose()
  rmSync(dataDir, { recursive: true, force: true })
})

const call = async (channel: string, request?: unknown): Promise<unknown> => {
  const response = await dispatch(handlers, channel, request)
  if (!response.ok) throw new Error(`${channel}: ${response.error.code}: ${response.error.message}`)
  return response.value
}

describe('pool IPC channels', () => {
  it('report status, health, tools and log of a server, and reconnect it', async () => {
    const events: EventMap['server:status'][] = []
    core.events.on('server:status', (event) => events.push(event))
    await core.pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
    await core.pool.session('kb')

    expect(await call('pool:status')).toEqual([
      { server: 'kb', status: expect.objectContaining({ state: 'ready' }) },
    ])
    const [health] = (await call('pool:health', { server: 'kb' })) as { server: string }[]
    expect(health).toMatchObject({ server: 'kb', status: { state: 'ready' } })
    expect(await call('pool:health')).toHaveLength(1)
    const tools = (await call('pool:tools', { server: 'kb', refresh: true })) as {
      tools: { name: string }[]
      serverInfo: unknown
    }
    expect(tools.tools.map((t) => t.name)).toContain('echo')
    expect(tools.serverInfo).toEqual({
      name: 'stdio-fixture',
      version: '1.2.3',
      capabilities: ['tools'],
    })
    const log = await waitFor(async () => {
      const value = (await call('pool:log', { server: 'kb', limit: 10 })) as { lines: unknown[] }
      return value.lines.length > 0 ? value : undefined
    })
    expect(log).toMatchObject({ server: 'kb' })

    expect(await call('pool:reconnect', { server: 'kb' })).toEqual({
      server: 'kb',
      status: expect.objectContaining({ state: 'ready' }),
    })
    expect(events.map((e) => e.status.state)).toEqual([
      'connecting',
      'ready',
      'connecting',
      'ready',
    ])
    // Payloads are plain JSON.
    expect(JSON.parse(JSON.stringify(health))).toEqual(health)
  })

  it('answers not_found for an unknown server', async () => {
    const response = await dispatch(handlers, 'pool:log', { server: 'nope' })
    expect(response).toMatchObject({ ok: false, error: { code: 'not_found', server: 'nope' } })
  })

  it('stops every child process when the core is disposed', async () => {
    await core.pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
    await core.pool.session('kb')
    const pids = core.pool.pids()
    await core.dispose()
    for (const pid of pids) expect(isAlive(pid)).toBe(false)
  })
})

describe('pool in the core', () => {
  const writeRegistry = (file: string, servers: Record<string, unknown>): void =>
    writeFileSync(file, JSON.stringify(servers))
  const kb = (env: Record<string, string> = {}) => ({
    command: process.execPath,
    args: [fixture('stdio-server.mjs')],
    env,
  })
  /** A core on `servers` that connects them and follows the registry. */
  const connectedCore = (servers: Record<string, unknown>): Promise<Core> => {
    const file = join(dataDir, 'rag-mcp.json')
    writeRegistry(file, servers)
    const options = { dataDir, configPath: file, env: {}, watch: false, connect: true }
    return Core.create({ ...options, pool: TEST_POOL_OPTIONS })
  }

  it('connects the registry with connect: true and follows its reloads', async () => {
    const connected = await connectedCore({ kb: kb(), other: kb() })
    try {
      await connected.pool.session('kb')
      expect(connected.pool.serverIds()).toEqual(['kb', 'other'])
      await connected.pool.session('other')
      const pids = connected.pool.pids()

      writeRegistry(join(dataDir, 'rag-mcp.json'), { kb: kb() })
      await connected.registry.reloadNow()
      await waitFor(() => connected.pool.serverIds().length === 1)
      expect(connected.pool.serverIds()).toEqual(['kb'])
      expect(connected.pool.pids()).toEqual([pids[0]])
      await waitFor(() => !isAlive(pids[1]!), 'the removed server to stop')
    } finally {
      await connected.dispose()
    }
  })

  it('reconnects a server waiting for a secret once the secret is set', async () => {
    const connected = await connectedCore({ kb: kb({ KB_TOKEN: '${session:kbToken}' }) })
    try {
      const waiting = await waitFor(() =>
        connected.pool.status('kb').state === 'action_required'
          ? connected.pool.status('kb')
          : undefined,
      )
      expect(waiting).toMatchObject({ missingSessionTokens: ['kbToken'] })
      connected.secrets.setSessionToken('kb', 'kbToken', 'tok-123')
      await waitFor(() => connected.pool.status('kb').state === 'ready')
      const result = await connected.pool.callTool(
        'kb',
        'env',
        { name: 'KB_TOKEN' },
        { operation: 'call' },
      )
      expect(result.content).toEqual([{ type: 'text', text: 'tok-123' }])
    } finally {
      await connected.dispose()
    }
  })
})
