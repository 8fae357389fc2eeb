import { appendFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { AuditEntry } from '#shared/model/operations'
import { createRedactor } from '../secrets/redactor'
import { RotatingFile } from '../util/rotating-file'
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
    log.flush()
    const lines = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[0]!)).toMatchObject({ server: 'docs', latencyMs: 12, resultCount: 3 })
    expect(log.read().entries.map((e) => e.outcome)).toEqual(['error', 'ok'])
  })

  it('writes only the audit fields, never arguments or raw text', () => {
    const { log, dir } = makeLog()
    log.record({ ...entry(1), query: 'secret plans', raw: { text: 'x' } } as unknown as AuditEntry)
    log.flush()
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
    log.flush()
    expect(readFileSync(join(dir, 'audit.jsonl'), 'utf8')).not.toContain('tok-8f3a9c1d2e')
  })

  it('rotates at the size limit, keeps the newest files, and reads across them', () => {
    const { log, dir } = makeLog({ maxBytes: 600, keep: 2 })
    for (let n = 0; n < 30; n += 1) log.record(entry(n))
    log.flush()
    expect(readdirSync(dir).sort()).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2'])
    const all = log.read({ limit: 100 }).entries
    expect(all[0]!.at).toBe(entry(29).at)
    expect(all.length).toBeLessThan(30)
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse())
  })

  it('filters by server, user, outcome and time', () => {
    const { log } = makeLog()
    log.record(entry(1, { server: 'a' }))
    log.record(entry(2, { server: 'b', user: 'bob' }))
    log.record(entry(3, { server: 'b', outcome: 'error' }))
    expect(log.read({ server: 'b' }).entries).toHaveLength(2)
    expect(log.read({ user: 'bob' }).entries).toHaveLength(1)
    expect(log.read({ outcome: 'error' }).entries).toHaveLength(1)
    expect(log.read({ since: entry(2).at }).entries).toHaveLength(2)
    expect(log.read({ limit: 1 }).entries).toHaveLength(1)
  })

  it("keeps a citation check's verdict, telling no link from a link that is not a web link", () => {
    const { log } = makeLog()
    log.record(entry(1, { operation: 'access', verdict: 'no_link' }))
    log.record(entry(2, { operation: 'access', verdict: 'invalid_url' }))
    expect(log.read().entries.map((e) => e.verdict)).toEqual(['invalid_url', 'no_link'])
    expect(log.export('csv').text.trim().split('\n')[1]).toMatch(/,invalid_url,,$/)
  })

  it('exports JSONL and CSV with quoting', () => {
    const { log } = makeLog()
    log.record(entry(1, { server: 'a,"b"', sources: ['x', 'y'] }))
    const csv = log.export('csv').text.trim().split('\n')
    expect(csv[0]).toBe(
      'at,user,server,operation,tool,sources,outcome,errorCode,latencyMs,resultCount,verdict,automatic,expectedError',
    )
    expect(csv[1]).toContain('"a,""b"""')
    expect(csv[1]).toContain(',x y,')
    expect(JSON.parse(log.export('jsonl').text.trim())).toMatchObject({ server: 'a,"b"' })
  })

  it('starts a new line after a torn last line instead of gluing the next entry to it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rc-audit-'))
    // A crash in the middle of a write leaves half a line without its newline.
    writeFileSync(join(dir, 'audit.jsonl'), `${JSON.stringify(entry(1))}\n{"at":"2026-01-0`)
    const log = new AuditLog(dir, createRedactor())
    log.record(entry(2, { server: 'after' }))
    log.record(entry(3, { server: 'later' }))
    log.flush()
    const lines = readFileSync(join(dir, 'audit.jsonl'), 'utf8').split('\n')
    expect(lines.slice(1)).toEqual([
      '{"at":"2026-01-0',
      expect.stringContaining('"after"'),
      expect.stringContaining('"later"'),
      '',
    ])
    expect(log.read().entries.map((e) => e.server)).toEqual(['later', 'after', 'docs'])
  })

  it('starts a new line when another process tore the last line after it opened the file', () => {
    const { log, dir } = makeLog()
    log.record(entry(1))
    appendFileSync(join(dir, 'audit.jsonl'), '{"at":')
    log.record(entry(2, { server: 'after' }))
    expect(log.read().entries.map((e) => e.server)).toEqual(['after', 'docs'])
  })

  it('skips unparsable lines and counts them', () => {
    const { log, dir } = makeLog()
    log.record(entry(1))
    appendFileSync(join(dir, 'audit.jsonl'), 'not json\n42\n{"at":"x"}{"at":"y"}\n\n')
    log.record(entry(2))
    const page = log.read()
    expect(page.entries).toHaveLength(2)
    expect(page.skipped).toBe(3)
    expect(log.export('jsonl').skipped).toBe(3)
    expect(log.read({ limit: 1 }).skipped).toBe(0)
  })

  it('writes the lines recorded in one tick with one append once the tick ends', async () => {
    const { log, dir } = makeLog()
    const appends = vi.spyOn(RotatingFile.prototype, 'appendAll')
    try {
      for (let n = 0; n < 50; n += 1) log.record(entry(n))
      await new Promise((resolve) => setImmediate(resolve))
      const lines = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trim().split('\n')
      expect(lines.map((line) => (JSON.parse(line) as AuditEntry).at)).toEqual(
        Array.from({ length: 50 }, (_, n) => entry(n).at),
      )
      expect(appends).toHaveBeenCalledTimes(1)
    } finally {
      appends.mockRestore()
    }
  })

  it('writes at most once per 25 ms: the replies of a wide search, settling in turn, share a write', async () => {
    vi.useFakeTimers()
    const { log, dir } = makeLog()
    const appends = vi.spyOn(RotatingFile.prototype, 'appendAll')
    const written = () => readFileSync(join(dir, 'audit.jsonl'), 'utf8').trim().split('\n').length
    try {
      log.record(entry(1))
      await vi.advanceTimersByTimeAsync(0)
      expect(appends).toHaveBeenCalledTimes(1)
      // Two more servers settle, each in a tick of its own, 5 ms apart.
      log.record(entry(2))
      await vi.advanceTimersByTimeAsync(5)
      log.record(entry(3))
      await vi.advanceTimersByTimeAsync(5)
      expect(appends).toHaveBeenCalledTimes(1)
      expect(written()).toBe(1)
      await vi.advanceTimersByTimeAsync(15)
      expect(appends).toHaveBeenCalledTimes(2)
      expect(written()).toBe(3)
      // Reading never waits for the batch.
      log.record(entry(4))
      expect(log.read().entries).toHaveLength(4)
    } finally {
      appends.mockRestore()
      vi.useRealTimers()
    }
  })

  it('reads lines recorded in the same tick', () => {
    const { log } = makeLog()
    log.record(entry(1))
    expect(log.read().entries).toHaveLength(1)
  })

  it('writes the lines of its last tick when the process exits right after recording them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rc-audit-'))
    // A child that records and exits in the same tick (as a CLI calling process.exit would).
    const script = `
      const { createJiti } = require('jiti')
      const jiti = createJiti(${JSON.stringify(__filename)})
      jiti.import('./audit.ts').then(({ AuditLog }) =>
        jiti.import('../secrets/redactor.ts').then(({ createRedactor }) => {
          const log = new AuditLog(${JSON.stringify(dir)}, createRedactor())
          log.record(${JSON.stringify(entry(1))})
          log.record(${JSON.stringify(entry(2))})
          process.exit(3)
        }),
      )`
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' })
    expect(child.status, child.stderr).toBe(3)
    const lines = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trim().split('\n')
    expect(lines.map((line) => (JSON.parse(line) as AuditEntry).at)).toEqual([
      entry(1).at,
      entry(2).at,
    ])
  })
})
