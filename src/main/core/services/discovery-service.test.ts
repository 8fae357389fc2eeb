import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AuditPage, ServerDiscovery } from '#shared/model/operations'
import { dispatch } from '../api/dispatch'
import { createHandlers } from '../api/handlers'
import type { Profile } from '#shared/model/user'
import type { Core } from '../core'
import { DISCOVERY_CACHE_MS } from './discovery-service'
import { fixtureEntry, startCore, whenState, type LiveCore } from '#test/support/core/live'

/** Profile visibility, discovery and remembered selections against fixture servers over stdio. */

const SALES: Profile = {
  id: 'sales',
  name: 'Sales',
  userId: 'alice@example.com',
  sessionTags: ['department:sales'],
  groups: ['users', 'sales'],
}
const ENGINEERING: Profile = {
  id: 'eng',
  name: 'Engineering',
  userId: 'bob@example.com',
  sessionTags: ['department:engineering'],
  groups: ['engineering'],
}

function registry(docsSources: string): object {
  return {
    docs: fixtureEntry(['--name', 'docs', '--sources', docsSources], {
      groups: ['users'],
      dataSources: [
        { id: 'legal', name: 'Legal Docs', groups: ['legal'], defaultSelected: true },
        { id: 'handbook', name: 'Employee Handbook' },
      ],
    }),
    eng: fixtureEntry(['--name', 'eng', '--sources', 'wiki'], { groups: ['engineering'] }),
  }
}

function actAs(core: Core, profile: Profile): void {
  core.settings.saveProfile(profile)
  core.settings.setActive(profile.id)
}

function sourcesOf(server: ServerDiscovery | undefined): Record<string, [boolean, boolean]> {
  return Object.fromEntries(
    (server?.sources ?? []).map((s) => [s.id, [s.visible, s.selected] as [boolean, boolean]]),
  )
}

describe('visibility per profile', () => {
  let live: LiveCore
  beforeAll(async () => {
    live = await startCore(registry('handbook,legal,sales'))
    await whenState(live.core, ['docs', 'eng'])
  })
  afterAll(() => live?.close())

  it('shows each profile only the servers its groups allow', async () => {
    actAs(live.core, SALES)
    const asSales = await live.core.services.servers.list()
    expect(asSales.map((s) => [s.id, s.visible])).toEqual([
      ['docs', true],
      ['eng', false],
    ])
    actAs(live.core, ENGINEERING)
    const discovery = await live.core.services.discovery.run()
    expect(discovery.servers.map((s) => s.server)).toEqual(['eng'])
    expect(discovery.user.userId).toBe('bob@example.com')
    live.core.settings.setActive('admin')
    expect((await live.core.services.discovery.run()).servers.map((s) => s.server)).toEqual([
      'docs',
      'eng',
    ])
  })

  it('describes each server: status, dialect from its tools, latency', async () => {
    const [docs] = await live.core.services.servers.list()
    expect(docs).toMatchObject({
      id: 'docs',
      transport: 'stdio',
      status: { state: 'ready' },
      dialect: { id: 'rag-tools-v1', source: 'config' },
      secrets: [],
    })
    expect(docs?.tools.map((t) => t.name)).toContain('rag_get_raw_results')
  })

  it('merges runtime sources with config names and hides a source from groups that may not see it', async () => {
    actAs(live.core, SALES)
    const { servers } = await live.core.services.discovery.run()
    const docs = servers.find((s) => s.server === 'docs')
    expect(docs?.ok).toBe(true)
    expect(docs?.sources.map((s) => [s.id, s.name])).toEqual([
      ['legal', 'Legal Docs'],
      ['handbook', 'Employee Handbook'],
      ['sales', 'sales (docs)'],
    ])
    expect(sourcesOf(docs)).toEqual({
      legal: [false, false],
      handbook: [true, true],
      sales: [true, true],
    })
  })

  it('merges a server’s sources once until its discovery, toggles or profile change', async () => {
    actAs(live.core, SALES)
    await live.core.services.discovery.run()
    const { discovery } = live.core.services
    const config = live.core.registry.server('docs')!
    const first = discovery.sourcesOf(config, SALES)
    expect(discovery.sourcesOf(config, SALES)).toBe(first)
    live.core.settings.setSelection(SALES.id, 'docs', { handbook: false })
    const toggled = discovery.sourcesOf(config, SALES)
    expect(toggled.sources.find((s) => s.id === 'handbook')?.selected).toBe(false)
    const wider = { ...SALES, groups: [...SALES.groups, 'legal'] }
    expect(discovery.sourcesOf(config, wider).sources.find((s) => s.id === 'legal')?.visible).toBe(
      true,
    )
    await discovery.run()
    expect(discovery.sourcesOf(config, SALES)).not.toBe(toggled)
    live.core.settings.setSelection(SALES.id, 'docs', { handbook: true })
  })

  it('refuses, in words, a server the profile may not see', async () => {
    actAs(live.core, SALES)
    const { servers } = await live.core.services.discovery.run({ servers: ['eng', 'nope'] })
    expect(servers.map((s) => [s.server, s.error?.code])).toEqual([
      ['eng', 'invalid_argument'],
      ['nope', 'not_found'],
    ])
    expect(servers[0]?.error?.message).toMatch(/hidden from profile "Sales"/)
  })
})

describe('automatic discovery in the audit log', () => {
  let live: LiveCore
  beforeAll(async () => {
    live = await startCore(registry('handbook,legal,sales'))
    await whenState(live.core, ['docs', 'eng'])
    actAs(live.core, SALES)
  })
  afterAll(() => live?.close())

  const ask = async <C extends 'discovery:run' | 'audit:list'>(
    channel: C,
    request: unknown,
  ): Promise<unknown> => {
    const response = await dispatch(createHandlers(live.core), channel, request)
    if (!response.ok) throw new Error(`${channel}: ${response.error.message}`)
    return response.value
  }

  it('marks the runs the console starts by itself, and filters by it', async () => {
    // As the renderer does on a page load, then as a person pressing Rediscover.
    await ask('discovery:run', { automatic: true })
    await ask('discovery:run', undefined)
    await live.core.services.idle()
    const lines = live.auditLines().filter((line) => line.operation === 'discover')
    expect(lines.map((line) => line.automatic ?? false)).toEqual([true, false])
    expect(lines[0]).toMatchObject({ server: 'docs', user: SALES.userId, outcome: 'ok' })

    const automatic = ((await ask('audit:list', { automatic: true })) as AuditPage).entries
    const asked = ((await ask('audit:list', { automatic: false })) as AuditPage).entries
    expect(automatic.map((entry) => entry.automatic)).toEqual([true])
    expect(asked.map((entry) => [entry.operation, entry.automatic])).toEqual([
      ['discover', undefined],
    ])
  })
})

describe('remembered selection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rc-selection-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('survives a restart and decides what a search without a selection sends', async () => {
    const first = await startCore(registry('handbook,legal,sales'), { dir })
    try {
      actAs(first.core, SALES)
      first.core.settings.setSelection('sales', 'docs', { sales: false })
    } finally {
      await first.close()
    }
    const second = await startCore(registry('handbook,legal,sales'), { dir })
    try {
      await whenState(second.core, ['docs'])
      expect(second.core.settings.active().id).toBe('sales')
      const { servers } = await second.core.services.discovery.run()
      expect(sourcesOf(servers[0])).toMatchObject({ handbook: [true, true], sales: [true, false] })
      await second.core.services.search.run({ searchId: 'remembered', query: 'pto' })
      await second.core.services.idle()
      const line = second.auditLines().find((l) => l.operation === 'search')
      expect(line).toMatchObject({ server: 'docs', sources: ['handbook'], user: SALES.userId })
    } finally {
      await second.close()
    }
  })

  it('survives a reload, and a selected source the server stopped serving is reported missing once', async () => {
    const live = await startCore(registry('handbook,legal,sales'), {
      dir: mkdtempSync(join(dir, 'r-')),
    })
    try {
      await whenState(live.core, ['docs'])
      actAs(live.core, SALES)
      live.core.settings.setSelection('sales', 'docs', { handbook: false, sales: true })
      await live.core.services.discovery.run()
      const missing: { server: string; sources: string[] }[] = []
      live.core.events.on('discovery:missing', (event) => missing.push(event))
      await live.rewrite(registry('handbook,legal'))
      await whenState(live.core, ['docs'])
      const { servers } = await live.core.services.discovery.run()
      const docs = servers[0]
      expect(docs?.missing).toEqual(['sales'])
      expect(docs?.sources.map((s) => s.id)).toEqual(['legal', 'handbook'])
      expect(sourcesOf(docs).handbook).toEqual([true, false])
      expect(missing).toEqual([{ server: 'docs', sources: ['sales'] }])
      await live.core.services.discovery.run()
      expect(missing).toHaveLength(1)
      expect(live.core.settings.selection('sales', 'docs')).toEqual({
        handbook: false,
        sales: true,
      })
    } finally {
      await live.close()
    }
  })
})

describe('the discovery cache', () => {
  let live: LiveCore
  beforeAll(async () => {
    live = await startCore(registry('handbook,legal,sales'))
    await whenState(live.core, ['docs', 'eng'])
    live.core.settings.setActive('admin')
  })
  afterAll(() => live?.close())
  afterEach(() => vi.useRealTimers())

  /** The servers a discovery asked (its calls, not the pool's probes), and its answers. */
  async function discover(request: { automatic?: boolean } = { automatic: true }) {
    const asked: string[] = []
    const stop = live.core.calls.add((call) => {
      if (!call.probe) asked.push(call.server)
    })
    try {
      const { servers } = await live.core.services.discovery.run(request)
      return { asked: asked.sort(), servers }
    } finally {
      stop()
    }
  }

  it('answers a second automatic discovery from what the first found, and says so', async () => {
    const first = await discover({})
    expect(first.asked).toEqual(['docs', 'eng'])
    expect(first.servers.map((s) => s.cached)).toEqual([undefined, undefined])
    const second = await discover()
    expect(second.asked).toEqual([])
    expect(second.servers.map((s) => [s.server, s.ok, s.cached])).toEqual([
      ['docs', true, true],
      ['eng', true, true],
    ])
    // The same sources, and when the server was asked for them.
    expect(second.servers.map((s) => s.sources)).toEqual(first.servers.map((s) => s.sources))
    expect(second.servers.map((s) => s.askedAt)).toEqual(first.servers.map((s) => s.askedAt))
    expect(second.servers[0]?.askedAt).toEqual(expect.any(Number))
  })

  it('asks every server again when a person asks (Rediscover, rag-console discover)', async () => {
    await discover()
    const again = await discover({})
    expect(again.asked).toEqual(['docs', 'eng'])
    expect(again.servers.map((s) => s.cached)).toEqual([undefined, undefined])
  })

  it('keeps answers per acting identity', async () => {
    await discover()
    actAs(live.core, { ...SALES, groups: ['users', 'sales', 'engineering'] })
    try {
      expect((await discover()).asked).toEqual(['docs', 'eng'])
      expect((await discover()).asked).toEqual([])
    } finally {
      live.core.settings.setActive('admin')
    }
  })

  it('asks a server again once it reconnected, and only that one', async () => {
    await discover()
    await live.core.pool.reconnect('eng')
    await whenState(live.core, ['eng'])
    const after = await discover()
    expect(after.asked).toEqual(['eng'])
    expect(after.servers.map((s) => [s.server, s.cached])).toEqual([
      ['docs', true],
      ['eng', undefined],
    ])
  })

  it('asks again once the cache time has passed', async () => {
    await discover({})
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + DISCOVERY_CACHE_MS - 1_000 })
    expect((await discover()).asked).toEqual([])
    vi.setSystemTime(Date.now() + 2_000)
    expect((await discover()).asked).toEqual(['docs', 'eng'])
  })

  it('asks a server again once its entry in rag-mcp.json changed', async () => {
    await discover()
    const changed = registry('handbook,legal,sales') as Record<string, Record<string, unknown>>
    changed.eng = { ...changed.eng, timeoutMs: 9_000 }
    await live.rewrite(changed)
    await whenState(live.core, ['docs', 'eng'])
    expect((await discover()).asked).toEqual(['eng'])
  })
})

describe('time budget', () => {
  it("a run's timeoutMs replaces the server's own, and its refusal names the timeout", async () => {
    const live = await startCore({
      slow: fixtureEntry(['--name', 'slow', '--discover-delay', '5000'], { timeoutMs: 10_000 }),
    })
    try {
      await whenState(live.core, ['slow'])
      // The server answers after 5 s, inside its own 10 s budget: only the run's 300 ms ends it.
      const { servers } = await live.core.services.discovery.run({ timeoutMs: 300 })
      expect(servers[0]).toMatchObject({ server: 'slow', ok: false, error: { code: 'timeout' } })
      // A failure is not kept: the console's own next discovery asks again.
      const again = await live.core.services.discovery.run({ timeoutMs: 300, automatic: true })
      expect(again.servers[0]).toMatchObject({ ok: false, error: { code: 'timeout' } })
      expect(again.servers[0]?.cached).toBeUndefined()
    } finally {
      await live.close()
    }
  })
})
