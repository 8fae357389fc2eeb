import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '#shared/model/operations'
import { auditFacets, auditRequest, auditRowKeys, isFiltered, NO_FILTER } from './audit-filter'

const entry = (extra: Partial<AuditEntry>): AuditEntry => ({
  at: '2026-01-01T10:00:00.000Z',
  user: 'ana',
  server: 'kb',
  operation: 'search',
  outcome: 'ok',
  latencyMs: 5,
  ...extra,
})

describe('audit filters', () => {
  it('asks for everything when nothing is chosen', () => {
    expect(auditRequest(NO_FILTER, 0)).toEqual({})
    expect(isFiltered(NO_FILTER)).toBe(false)
  })

  it('sends only the chosen fields, and a period as the time it starts', () => {
    const now = Date.parse('2026-01-01T12:00:00.000Z')
    const filter = { ...NO_FILTER, server: 'kb', outcome: 'error' as const, period: '1h' as const }
    expect(auditRequest(filter, now)).toEqual({
      server: 'kb',
      outcome: 'error',
      since: '2026-01-01T11:00:00.000Z',
    })
    expect(isFiltered(filter)).toBe(true)
  })

  it('asks for only the calls a person asked for, or only the automatic ones', () => {
    expect(auditRequest({ ...NO_FILTER, trigger: 'person' }, 0)).toEqual({ automatic: false })
    expect(auditRequest({ ...NO_FILTER, trigger: 'automatic' }, 0)).toEqual({ automatic: true })
    expect(isFiltered({ ...NO_FILTER, trigger: 'automatic' })).toBe(true)
  })

  it('offers each server, user and operation once, sorted', () => {
    const facets = auditFacets([
      entry({ server: 'b', user: 'zoe', operation: 'verify' }),
      entry({ server: 'a' }),
      entry({ server: 'b', user: 'zoe' }),
    ])
    expect(facets).toEqual({
      servers: ['a', 'b'],
      users: ['ana', 'zoe'],
      operations: ['search', 'verify'],
    })
  })
})

describe('audit row keys', () => {
  it('keeps the keys of shown lines when newer lines arrive on top', () => {
    const older = [entry({ latencyMs: 1 }), entry({ latencyMs: 1 }), entry({ at: '2025' })]
    const newer = [entry({ at: '2027' }), ...older]
    const before = auditRowKeys(older)
    const after = auditRowKeys(newer)
    expect(older.map((e) => after.get(e))).toEqual(older.map((e) => before.get(e)))
  })

  it('gives identical lines distinct keys', () => {
    const same = [entry({}), entry({}), entry({})]
    expect(new Set(auditRowKeys(same).values()).size).toBe(3)
  })
})
