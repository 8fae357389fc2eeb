import { expect, it } from 'vitest'
import { EventBus } from '../events'
import type { CallRecord } from './call-observer'
import { EnvSecretResolver } from '#test/support/pool/env-secrets'
import { stdioFixture, TEST_POOL_OPTIONS } from '#test/support/pool/helpers'
import { waitFor } from '#test/support/process/wait-for'
import { ConnectionPool } from './pool'
import { NEVER_MS } from '#test/support/process/limits'

/** Metrics and traces hear of every call at the one place the pool measures it. */
async function observedPool(probeIntervalMs = 0) {
  const records: CallRecord[] = []
  const pool = new ConnectionPool({
    events: new EventBus(),
    secrets: new EnvSecretResolver({}),
    options: { ...TEST_POOL_OPTIONS, probeIntervalMs },
    observe: (record) => records.push(record),
  })
  await pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
  return { pool, records }
}

it('reports each call once, with its tool and outcome but never its arguments', async () => {
  const { pool, records } = await observedPool()
  try {
    const session = await pool.session('kb')
    await session.callTool('echo', { text: 'private words 42' }, { operation: 'call' })
    await session
      .callTool('sleep', { ms: NEVER_MS }, { operation: 'search', timeoutMs: 50 })
      .catch(() => {})
    expect(records.map((r) => [r.operation, r.method, r.tool, r.code])).toEqual([
      ['connect', 'connect', undefined, undefined],
      ['call', 'tools/call', 'echo', undefined],
      ['search', 'tools/call', 'sleep', 'timeout'],
    ])
    expect(records[1]).toMatchObject({ server: 'kb', transport: 'stdio', ms: expect.any(Number) })
    expect(records[2]).toMatchObject({ origin: 'local' })
    expect(JSON.stringify(records)).not.toContain('private words')
  } finally {
    await pool.dispose()
  }
})

it('marks the health probes as probes', async () => {
  const { pool, records } = await observedPool(50)
  try {
    const probe = await waitFor(() => records.find((r) => r.probe), 'a probe')
    expect(probe).toMatchObject({ server: 'kb', method: 'ping', probe: true })
    expect(records.find((r) => r.operation === 'connect')?.probe).toBeUndefined()
  } finally {
    await pool.dispose()
  }
})
