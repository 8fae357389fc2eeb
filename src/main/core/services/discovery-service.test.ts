import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditPage, ServerDiscovery } from '../../../shared/model/operations'
import { dispatch } from '../api/dispatch'
import { createHandlers } from '../api/handlers'
import type { Profile } from '../../../shared/model/user'
import type { Core } from '../core'
import { fixtureEntry, startCore, whenState, type LiveCore } from './testing/live'

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
    } finally {
      await live.close()
    }
  })
})
