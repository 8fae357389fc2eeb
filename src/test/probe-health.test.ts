import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from './support/demo/programs'
import { startCore, whenState, type LiveCore } from './support/core/live'
import { waitFor } from './support/process/wait-for'

/**
 * The VTEX demo answers `ping` with -32601 (method not found). A ping the server does not
 * implement says nothing about its health: the probes fall back to `tools/list` and the
 * server stays `ready`, with no failed calls in its health.
 */

let vtex: DemoProcess
let live: LiveCore

beforeAll(async () => {
  vtex = await startDemo(['vtex', '--port', '0'])
  live = await startCore(
    {
      productCatalog: { transport: 'http', url: vtex.url, dialect: 'vtex', groups: ['users'] },
    },
    { pool: { probeIntervalMs: 20 } },
  )
  await whenState(live.core, ['productCatalog'])
})

afterAll(async () => {
  await live?.close()
  await vtex?.stop()
})

describe('health probes of a server without ping', () => {
  it('keeps it ready and counts no failed call after many probes', async () => {
    const probes = () =>
      live.core.pool
        .health('productCatalog')[0]!
        .operations.filter((op) => op.operation === 'ping' || op.operation === 'tools/list')
        .reduce((sum, op) => sum + op.calls, 0)
    await waitFor(() => probes() >= 25, '25 probes')
    const health = live.core.pool.health('productCatalog')[0]!
    expect(health.status.state).toBe('ready')
    expect(health.overall.errors).toEqual({})
    expect(health.operations.find((op) => op.operation === 'ping')?.errors ?? {}).toEqual({})
    expect(health.operations.find((op) => op.operation === 'tools/list')?.calls).toBeGreaterThan(1)
  })

  it('notes in the server log why probes use tools/list', () => {
    expect(live.core.pool.log('productCatalog').map((line) => line.text)).toContainEqual(
      expect.stringMatching(/does not implement "ping".*tools\/list/),
    )
  })
})
