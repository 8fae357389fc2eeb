import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventMap } from '../../../shared/ipc/contract'
import { dispatch } from '../api/dispatch'
import { createHandlers, type Handlers } from '../api/handlers'
import { Core } from '../core'
import { EnvSecretResolver } from './fixtures/env-secrets'
import { isAlive, stdioFixture, TEST_POOL_OPTIONS, waitFor } from './fixtures/helpers'

let dataDir: string
let core: Core
let handlers: Handlers

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pool-ipc-'))
  core = await Core.create({
    dataDir,
    env: {},
    secrets: new EnvSecretResolver({}),
    pool: TEST_POOL_OPTIONS,
  })
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
    expect(tools.serverInfo).toEqual({ name: 'stdio-fixture', version: '1.2.3' })
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
