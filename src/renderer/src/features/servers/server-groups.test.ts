import { describe, expect, it } from 'vitest'
import type { ServerStatus, ServerSummary } from '#shared/model/server'
import { testServer } from '#test/support/model/servers'
import { connectProgress, filterItems, groupItems, serverMatches } from './server-groups'

const down: ServerStatus = {
  state: 'down',
  since: 1,
  attempt: 1,
  lastError: { code: 'unreachable', message: 'no' },
}

const server = testServer

const ids = (items: { id: string }[]): string[] => items.map((s) => s.id)
const byId = (list: ServerSummary[]) => (id: string) => list.find((s) => s.id === id)

describe('serverMatches', () => {
  it('finds a server by url, dialect, status words and groups, every word having to match', () => {
    const s = server('vault', { groups: ['legal'], status: down, description: 'Contracts' })
    expect(serverMatches(s, '7000/vault')).toBe(true)
    expect(serverMatches(s, 'RAGBOX')).toBe(true)
    expect(serverMatches(s, 'down legal')).toBe(true)
    expect(serverMatches(s, 'contracts ready')).toBe(false)
  })
})

describe('filterItems', () => {
  it('keeps only the servers needing attention when asked, then applies the text', () => {
    const list = [
      server('a'),
      server('b', { status: down }),
      server('c', { status: { state: 'action_required', since: 1, reason: 'sign in' } }),
      server('d', { status: { state: 'disabled', since: 1 } }),
    ]
    const filter = (text: string, onlyAttention: boolean) =>
      ids(filterItems(list, { text, onlyAttention }, (s) => s.id, byId(list)))
    expect(filter('', true)).toEqual(['b', 'c'])
    expect(filter('action', true)).toEqual(['c'])
    expect(filter('', false)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('keeps a ready server whose source needs an action among those needing attention', () => {
    const list = [server('a'), server('tokens'), server('b', { status: down })]
    const kept = filterItems(
      list,
      { text: '', onlyAttention: true },
      (s) => s.id,
      byId(list),
      new Set(['tokens']),
    )
    expect(ids(kept)).toEqual(['tokens', 'b'])
    const groups = groupItems(list, 'none', (s) => s.id, byId(list), new Set(['tokens']))
    expect(groups[0]!.attention).toBe(2)
  })
})

describe('groupItems', () => {
  it('groups by the set of groups, listing a server once, "No groups" last, with attention counts', () => {
    const list = [
      server('x', { groups: ['users', 'legal'] }),
      server('y', { groups: ['legal', 'users'], status: down }),
      server('z'),
      server('w', { groups: ['admin'] }),
    ]
    const groups = groupItems(list, 'groups', (s) => s.id, byId(list))
    expect(groups.map((g) => [g.label, ids(g.items), g.attention])).toEqual([
      ['admin', ['w'], 0],
      ['legal, users', ['x', 'y'], 1],
      ['No groups', ['z'], 0],
    ])
  })

  it('puts trouble first when grouping by status', () => {
    const list = [server('a'), server('b', { status: down })]
    const groups = groupItems(list, 'status', (s) => s.id, byId(list))
    expect(groups.map((g) => g.label)).toEqual(['down', 'ready'])
  })
})

describe('connectProgress', () => {
  it('counts enabled servers tried at least once; a retry counts as tried', () => {
    const list = [
      server('a'),
      server('b', { status: { state: 'connecting', since: 1, attempt: 1 } }),
      server('c', { status: { state: 'connecting', since: 1, attempt: 3 } }),
      server('d', { enabled: false, status: { state: 'disabled', since: 1 } }),
    ]
    expect(connectProgress(list)).toEqual({ tried: 2, total: 3, done: false })
    expect(connectProgress(list.slice(0, 1))).toEqual({ tried: 1, total: 1, done: true })
  })
})
