import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AuditEntry } from '../../../shared/model/operations'
import type { Redactor } from '../secrets/types'
import { RotatingFile } from '../util/rotating-file'

export interface AuditFilter {
  /** Newest first; at most this many (default 1,000). */
  limit?: number
  server?: string
  user?: string
  operation?: string
  outcome?: AuditEntry['outcome']
  /** ISO time; only entries at or after it. */
  since?: string
  /** Only automatic lines (true), or only the others (false). */
  automatic?: boolean
}

const MAX_BYTES = 10 * 1024 * 1024
const KEEP = 5
const CSV_COLUMNS: (keyof AuditEntry)[] = [
  'at',
  'user',
  'server',
  'operation',
  'tool',
  'sources',
  'outcome',
  'errorCode',
  'latencyMs',
  'resultCount',
  'automatic',
]

/**
 * The audit log: one JSON line per tool call, `<dataDir>/audit/audit.jsonl`, rotated at 10 MB
 * with 5 files kept. Lines are built from a fixed list of fields (never raw text or
 * arguments) and pass through the redactor, so no secret or token can land in it.
 */
export class AuditLog {
  private readonly file: RotatingFile

  constructor(
    dir: string,
    private readonly redactor: Redactor,
    options: { maxBytes?: number; keep?: number } = {},
  ) {
    this.file = new RotatingFile(join(dir, 'audit.jsonl'), {
      maxBytes: options.maxBytes ?? MAX_BYTES,
      keep: options.keep ?? KEEP,
    })
  }

  record(entry: AuditEntry): void {
    const line: AuditEntry = {
      at: entry.at,
      user: entry.user,
      server: entry.server,
      operation: entry.operation,
      outcome: entry.outcome,
      latencyMs: Math.round(entry.latencyMs),
    }
    if (entry.tool) line.tool = entry.tool
    if (entry.sources?.length) line.sources = [...entry.sources]
    if (entry.errorCode) line.errorCode = entry.errorCode
    if (entry.resultCount !== undefined) line.resultCount = entry.resultCount
    if (entry.automatic) line.automatic = true
    this.file.append(`${JSON.stringify(this.redactor.redact(line))}\n`)
  }

  /** Entries matching the filter, newest first, across the rotated files. */
  read(filter: AuditFilter = {}): AuditEntry[] {
    const limit = filter.limit ?? 1000
    const out: AuditEntry[] = []
    for (const path of this.file.files()) {
      const lines = readFileSync(path, 'utf8').split('\n')
      for (let i = lines.length - 1; i >= 0 && out.length < limit; i -= 1) {
        const entry = parseLine(lines[i]!)
        if (entry && matches(entry, filter)) out.push(entry)
      }
      if (out.length >= limit) break
    }
    return out
  }

  export(format: 'jsonl' | 'csv', filter: AuditFilter = {}): string {
    const entries = this.read({ limit: Number.MAX_SAFE_INTEGER, ...filter })
    if (format === 'jsonl') return entries.map((entry) => JSON.stringify(entry)).join('\n') + '\n'
    const rows = entries.map((entry) =>
      CSV_COLUMNS.map((column) => csvCell(entry[column])).join(','),
    )
    return [CSV_COLUMNS.join(','), ...rows].join('\n') + '\n'
  }
}

function parseLine(line: string): AuditEntry | null {
  if (!line.trim()) return null
  try {
    return JSON.parse(line) as AuditEntry
  } catch {
    return null
  }
}

function matches(entry: AuditEntry, filter: AuditFilter): boolean {
  return (
    (!filter.server || entry.server === filter.server) &&
    (!filter.user || entry.user === filter.user) &&
    (!filter.operation || entry.operation === filter.operation) &&
    (!filter.outcome || entry.outcome === filter.outcome) &&
    (!filter.since || entry.at >= filter.since) &&
    (filter.automatic === undefined || filter.automatic === (entry.automatic === true))
  )
}

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return ''
  const text = Array.isArray(value) ? value.join(' ') : String(value)
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}
