import { describe, expect, it } from 'vitest'
import type { DiscoveryResult, ServerDiscovery } from '#shared/model/operations'
import { searchSelection, serverSources, sittingOut, takesPart } from './sources'

const source = (server: string, id: string, selected: boolean, visible = true) => ({
  server,
  id,
  name: id.toUpperCase(),
  authRequired: false,
  groups: [],
  scopes: [],
  defaultSelected: selected,
  selected,
  visible,
})

const discovery = (...servers: Partial<ServerDiscovery>[]): DiscoveryResult => ({
  user: { userId: 'u', sessionTags: [], groups: [] } as unknown as DiscoveryResult['user'],
  servers: servers.map((s) => ({
    server: 'x',
    ok: true,
    latencyMs: 1,
    sources: [],
    missing: [],
    ...s,
  })),
})

describe('sources of a search', () => {
  it('takes the toggles of the profile over what discovery reported', () => {
    const [docs] = serverSources(
      discovery({
        server: 'docs',
        sources: [source('docs', 'a', true), source('docs', 'b', false)],
      }),
      { docs: { a: false, b: true } },
    )
    expect(docs!.selected.map((s) => s.id)).toEqual(['b'])
  })

  it('ignores sources the profile cannot see', () => {
    const [docs] = serverSources(
      discovery({ server: 'docs', sources: [source('docs', 'a', true, false)] }),
      undefined,
    )
    expect(docs).toMatchObject({ selected: [], total: 0 })
  })

  it('lets a server without sources take part as a whole, unless it failed', () => {
    expect(takesPart({ server: 's', selected: [], total: 0 })).toBe(true)
    expect(
      takesPart({ server: 's', selected: [], total: 0, error: { code: 'timeout', message: 't' } }),
    ).toBe(false)
    expect(takesPart({ server: 's', selected: [], total: 2 })).toBe(false)
  })

  it('sends no selection unless servers are left out, then exactly the ones kept', () => {
    const servers = serverSources(
      discovery(
        { server: 'a', sources: [source('a', 'kb', true)] },
        { server: 'b', sources: [source('b', 'kb', true)] },
        { server: 'c', sources: [] },
      ),
      undefined,
    )
    expect(searchSelection(servers, new Set())).toBeUndefined()
    expect(searchSelection(servers, new Set(['b']))).toEqual({ a: ['kb'], c: [] })
  })
})

describe('servers sitting out', () => {
  it('names each server a search leaves out and why: nothing selected, sources not listed', () => {
    const servers = serverSources(
      discovery(
        { server: 'docs', sources: [source('docs', 'a', true)] },
        { server: 'catalog', sources: [source('catalog', 'c', false)] },
        { server: 'broken', ok: false, error: { code: 'unreachable', message: 'down' } },
        { server: 'wiki', sources: [source('wiki', 'w', true)] },
      ),
      undefined,
    )
    expect(sittingOut(servers)).toEqual([
      { server: 'catalog', reason: 'no source selected' },
      { server: 'broken', reason: 'its sources could not be listed' },
    ])
  })
})
