import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../../shared/model/operations'
import { createRedactor } from '../secrets/redactor'
import { AuditLog } from './audit'

const entry = (n: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  user: 'alice@example.com',
  server: 'docs',
  operation: 'search',
  tool: 'rag_search',
  sources: ['handbook'],
  outcome: 'ok',
  latencyMs: 12.4,
  resultCount: 3,
  ...over,
})

function makeLog(options?: { maxBytes?: number; keep?: number }): { log: AuditLog; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rc-audit-'))
  return { log: new AuditLog(dir, createRedactor(), options), dir }
}

describe('AuditLog', () => {
  it('appends one JSON line per call and reads them newest first', () => {
    const { log, dir } = makeLog()
    log.record(entry(1))
    log.record(entry(2, { outcome: 'error', errorCode: 'timeout', resultCount: undefined }))
    const lines = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[0]!)).toMatchObject({ server: 'docs', latencyMs: 12, resultCount: 3 })
    expect(log.read().map((e) => e.outcome)).toEqual(['error', 'ok'])
  })

  it('writes only the audit fields, never arguments or raw text', () => {
    const { log, dir } = makeLog()
    log.record({ ...entry(1), query: 'secret plans', raw: { text: 'x' } } as unknown as AuditEntry)
    const text = readFileSync(join(dir, 'audit.jsonl'), 'utf8')
    expect(text).not.toContain('secret plans')
    expect(text).not.toContain('raw')
  })

  it('redacts known secret values', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rc-audit-'))
    const redactor = createRedactor()
    redactor.add('tok-8f3a9c1d2e')
    const log = new AuditLog(dir, redactor)
    log.record(entry(1, { user: 'tok-8f3a9c1d2e' }))
    expect(readFileSync(join(dir, 'audit.jsonl'), 'utf8')).not.toContain('tok-8f3a9c1d2e')
  })

  it('rotates at the size limit, keeps the newest files, and reads across them', () => {
    const { log, dir } = makeLog({ maxBytes: 600, keep: 2 })
    for (let n = 0; n < 30; n += 1) log.record(entry(n))
    expect(readdirSync(dir).sort()).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2'])
    const all = log.read({ limit: 100 })
    expect(all[0]!.at).toBe(entry(29).at)
    expect(all.length).toBeLessThan(30)
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse())
  })

  it('filters by server, user, outcome and time', () => {
    const { log } = makeLog()
    log.record(entry(1, { server: 'a' }))
    log.record(entry(2, { server: 'b', user: 'bob' }))
    log.record(entry(3, { server: 'b', outcome: 'error' }))
    expect(log.read({ server: 'b' })).toHaveLength(2)
    expect(log.read({ user: 'bob' })).toHaveLength(1)
    expect(log.read({ outcome: 'error' })).toHaveLength(1)
    expect(log.read({ since: entry(2).at })).toHaveLength(2)
    expect(log.read({ limit: 1 })).toHaveLength(1)
  })

  it('exports JSONL and CSV with quoting', () => {
    const { log } = makeLog()
    log.record(entry(1, { server: 'a,"b"', sources: ['x', 'y'] }))
    const csv = log.export('csv').trim().split('\n')
    expect(csv[0]).toBe(
      'at,user,server,operation,tool,sources,outcome,errorCode,latencyMs,resultCount,automatic',
    )
    expect(csv[1]).toContain('"a,""b"""')
    expect(csv[1]).toContain(',x y,')
    expect(JSON.parse(log.export('jsonl').trim())).toMatchObject({ server: 'a,"b"' })
  })
})
