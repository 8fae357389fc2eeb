import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MASK } from '#shared/config/plaintext-secrets'
import {
  RAG_FIXTURE,
  fixtureEntry,
  startCore,
  whenState,
  type LiveCore,
} from '#test/support/core/live'
import { waitFor } from '#test/support/process/wait-for'

/** The server list as the Servers panel shows it, through the whole console. */
let live: LiveCore

beforeAll(async () => {
  live = await startCore(
    {
      fast: fixtureEntry(['--name', 'fast']),
      keyed: {
        url: 'http://127.0.0.1:9/mcp',
        headers: { 'X-API-Key': '${keychain:apiKey}', 'X-Tenant': '${env:TENANT}' },
        groups: ['legal'],
      },
      off: {
        ...fixtureEntry([
          '--name',
          'off',
          '--api-key',
          'sk-live0123456789abcdefXYZ',
          '--token=Zq8vN2kLp4Rt7wXy1bC3dF6h',
        ]),
        enabled: false,
      },
    },
    // A keychain that cannot be reached: presence is unknown, never guessed.
    { keychain: { openEntry: () => Promise.reject(new Error('Platform failure: no bus')) } },
  )
  await whenState(live.core, ['fast'])
})

afterAll(() => live?.close())

describe('servers:list', () => {
  it('describes a connected server: status, dialect, tools and latency', async () => {
    await live.core.services.search.run({ searchId: 'warm', query: 'x', selection: { fast: [] } })
    const fast = (await live.core.services.servers.list()).find((s) => s.id === 'fast')
    expect(fast).toMatchObject({
      enabled: true,
      transport: 'stdio',
      visible: true,
      status: { state: 'ready' },
      dialect: { id: 'rag-tools-v1', source: 'config' },
      serverInfo: { name: 'fast' },
      secrets: [],
    })
    expect(fast?.dialect.reason).toMatch(/has rag_get_raw_results/)
    expect(fast?.latency?.p50).toBeGreaterThan(0)
  })

  it('lists the keychain secrets a server references, unknown while the keychain is unreachable', async () => {
    const keyed = await waitFor(async () => {
      const found = (await live.core.services.servers.list()).find((s) => s.id === 'keyed')
      return found?.status.state === 'connecting' ? undefined : found
    }, 'keyed to leave connecting')
    expect(keyed.secrets).toEqual([{ name: 'apiKey', present: null }])
    expect(keyed.status).toMatchObject({ lastError: { code: 'keychain_unavailable' } })
    expect(keyed.dialect).toMatchObject({ id: null, source: 'detected' })
    expect(keyed.dialect.reason).toMatch(/not connected yet/)
  })

  it("shows a stdio server's command with its arguments, secrets masked", async () => {
    const off = (await live.core.services.servers.list()).find((s) => s.id === 'off')
    expect(off?.command).toBe(process.execPath)
    expect(off?.args).toEqual([RAG_FIXTURE, '--name', 'off', '--api-key', MASK, `--token=${MASK}`])
    expect(JSON.stringify(off)).not.toMatch(/sk-live|Zq8vN2/)
  })

  it('shows a disabled server as disabled, and hides servers from profiles outside their groups', async () => {
    const all = await live.core.services.servers.list()
    expect(all.find((s) => s.id === 'off')).toMatchObject({
      enabled: false,
      status: { state: 'disabled' },
      dialect: { id: 'rag-tools-v1', source: 'config' },
    })
    live.core.settings.saveProfile({
      id: 'sales',
      name: 'Sales',
      userId: 'alice@example.com',
      sessionTags: [],
      groups: ['users'],
    })
    live.core.settings.setActive('sales')
    const asSales = await live.core.services.servers.list()
    expect(asSales.map((s) => [s.id, s.visible])).toEqual([
      ['fast', true],
      ['keyed', false],
      ['off', true],
    ])
  })
})
