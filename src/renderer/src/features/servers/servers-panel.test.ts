import { describe, expect, it } from 'vitest'
import type { SessionTokenInfo } from '#shared/ipc/secrets'
import type { ServerStatus, ServerSummary } from '#shared/model/server'
import { testServer } from '#test/support/model/servers'
import { cardId, progressLine, shownLine, stateCounts, tokenNamesOf } from './servers-panel'

const server = (id: string, status: ServerStatus): ServerSummary => testServer(id, { status })
const ready: ServerStatus = { state: 'ready', since: 1 }
const down: ServerStatus = {
  state: 'down',
  since: 1,
  attempt: 1,
  lastError: { code: 'unreachable', message: 'no' },
}
const disabled: ServerStatus = { state: 'disabled', since: 1 }

describe('the counts in the head', () => {
  it('counts servers per state, working ones first, leaving out states no server is in', () => {
    const servers = [
      server('a', disabled),
      server('b', down),
      server('c', ready),
      server('d', down),
    ]
    expect(stateCounts(servers)).toEqual([
      { state: 'ready', count: 1 },
      { state: 'down', count: 2 },
      { state: 'disabled', count: 1 },
    ])
    expect(stateCounts([])).toEqual([])
  })

  it('says how many a filter shows only when it hides some', () => {
    expect(shownLine(3, 3)).toBe('3 servers')
    expect(shownLine(1, 1)).toBe('1 server')
    expect(shownLine(1, 3)).toBe('1 of 3 servers shown')
  })

  it('says connecting until every enabled server was tried', () => {
    expect(progressLine({ tried: 1, total: 3, done: false })).toBe('Connecting 1 of 3…')
    expect(progressLine({ tried: 3, total: 3, done: true })).toBe('3 of 3 connected or tried')
  })
})

describe('each card', () => {
  it('gets the names of its own server’s session tokens only', () => {
    const tokens: SessionTokenInfo[] = [
      { server: 'a', name: 'wiki', setAt: 1 },
      { server: 'b', name: 'hr', setAt: 2 },
      { server: 'a', name: 'legal', setAt: 3 },
    ]
    expect(tokenNamesOf(tokens, 'a')).toEqual(['wiki', 'legal'])
    expect(tokenNamesOf(tokens, 'c')).toEqual([])
  })

  it('has an element id that stays valid for any server id', () => {
    expect(cardId('docs rag/1')).toBe('server-docs%20rag%2F1')
  })
})
