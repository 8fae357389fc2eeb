import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AuditEntry, AuditPage } from '#shared/model/operations'
import { redactedJson } from '../secrets/redactor'
import type { Redactor } from '../secrets/types'
import { RotatingFile } from '../util/rotating-file'

export interface AuditFilter {
  /** Newest first; at most this many (default 1,000). */
  limit?: number | undefined
  server?: string | undefined
  user?: string | undefined
  operation?: string | undefined
  outcome?: AuditEntry['outcome'] | undefined
  /** ISO time; only entries at or after it. */
  since?: string | undefined
  /** Only automatic lines (true), or only the others (false). */
  automatic?: boolean | undefined
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
  'verdict',
  'automatic',
  'expectedError',
]

/**
 * The audit log: one JSON line per tool call and per citation check (with its verdict), `<dataDir>/audit/audit.jsonl`, rotated at 10 MB
 * with 5 files kept. Lines are built from a fixed list of fields (never raw text or
 * arguments) and pass through the redactor, so no secret or token can land in it. Lines
 * recorded in one tick are written together once it ends, each whole, and at most once per
 * {@link FLUSH_GAP_MS} (the servers of a wide search settle in ticks of their own: one write
 * for a burst of them, not one each); at exit and before a read, at once.
 */
export class AuditLog {
  private readonly file: RotatingFile
  /** Lines recorded in this tick, written together when it ends (see {@link flush}). */
  private pending: string[] = []
  /** When lines were last written (`Date.now()`). */
  private lastFlush = -Infinity

  constructor(
    dir: string,
    private readonly redactor: Redactor,
    options: {
      maxBytes?: number
      keep?: number
      /** A batch that could not be written (a full disk): reported, and the console goes on. */
      onWriteError?: (error: unknown, lines: number) => void
    } = {},
  ) {
    this.onWriteError = options.onWriteError ?? reportWriteError
    this.file = new RotatingFile(join(dir, 'audit.jsonl'), {
      maxBytes: options.maxBytes ?? MAX_BYTES,
      keep: options.keep ?? KEEP,
    })
  }

  private readonly onWriteError: (error: unknown, lines: number) => void

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
    if (entry.verdict) line.verdict = entry.verdict
    if (entry.automatic) line.automatic = true
    if (entry.expectedError) line.expectedError = entry.expectedError
    // Redacted from its JSON text: most lines hold nothing to redact and are not walked.
    this.pending.push(`${redactedJson(this.redactor, line).text}\n`)
    // A fan-out settles many servers per tick: one write for all of them, after the tick.
    if (this.pending.length === 1) {
      flushAtExit(this)
      const wait = this.lastFlush + FLUSH_GAP_MS - Date.now()
      if (wait > 0) setTimeout(() => this.flushQuietly(), wait)
      else setImmediate(() => this.flushQuietly())
    }
  }

  /** Writes the lines recorded so far (done by itself at the end of the tick and at exit). */
  flush(): void {
    if (this.pending.length === 0) return
    const lines = this.pending
    this.pending = []
    unflushed.delete(this)
    this.lastFlush = Date.now()
    this.file.appendAll(lines)
  }

  /** {@link flush}, reporting a failure instead of throwing it. */
  flushQuietly(): void {
    const lines = this.pending.length
    try {
      this.flush()
    } catch (error) {
      this.onWriteError(error, lines)
    }
  }

  /**
   * Entries matching the filter, newest first, across the rotated files, and the number of
   * unreadable lines passed over on the way (a torn write, a hand edit).
   */
  read(filter: AuditFilter = {}): AuditPage {
    this.flush()
    const limit = filter.limit ?? 1000
    const entries: AuditEntry[] = []
    let skipped = 0
    for (const path of this.file.files()) {
      const lines = readFileSync(path, 'utf8').split('\n')
      for (let i = lines.length - 1; i >= 0 && entries.length < limit; i -= 1) {
        const entry = parseLine(lines[i]!)
        if (entry === 'unreadable') skipped += 1
        else if (entry && matches(entry, filter)) entries.push(entry)
      }
      if (entries.length >= limit) break
    }
    return { entries, skipped }
  }

  /** The matching entries as a file's text, and how many unreadable lines were left out. */
  export(format: 'jsonl' | 'csv', filter: AuditFilter = {}): { text: string; skipped: number } {
    const { entries, skipped } = this.read({ limit: Number.MAX_SAFE_INTEGER, ...filter })
    if (format === 'jsonl') {
      return { text: entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''), skipped }
    }
    const rows = entries.map((entry) =>
      CSV_COLUMNS.map((column) => csvCell(entry[column])).join(','),
    )
    return { text: [CSV_COLUMNS.join(','), ...rows].join('\n') + '\n', skipped }
  }
}

/** The shortest time between two writes of one log (lines wait at most this long). */
export const FLUSH_GAP_MS = 25

/** Logs with lines not yet written: a process that exits before the tick ends writes them then. */
const unflushed = new Set<AuditLog>()
let exitHookInstalled = false

function flushAtExit(log: AuditLog): void {
  if (!exitHookInstalled) {
    process.once('exit', () => {
      for (const pending of unflushed) pending.flushQuietly()
    })
    exitHookInstalled = true
  }
  unflushed.add(log)
}

function reportWriteError(error: unknown, lines: number): void {
  const reason = error instanceof Error ? error.message : String(error)
  process.emitWarning(`audit log: ${lines} line(s) could not be written: ${reason}`)
}

/** An entry, null for a blank line, `unreadable` for anything that is not an audit line. */
function parseLine(line: string): AuditEntry | null | 'unreadable' {
  if (!line.trim()) return null
  try {
    const value = JSON.parse(line) as unknown
    return isEntry(value) ? value : 'unreadable'
  } catch {
    return 'unreadable'
  }
}

function isEntry(value: unknown): value is AuditEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const entry = value as Record<string, unknown>
  return (
    typeof entry.at === 'string' &&
    typeof entry.server === 'string' &&
    typeof entry.user === 'string' &&
    typeof entry.operation === 'string'
  )
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
