import type { PoolLogLine, PoolLogStream } from '#shared/ipc/servers'
import type { Logger } from '../log'
import type { Redactor } from '../secrets/types'

/** Longest line kept, in characters. */
const MAX_TEXT = 4096
/** Distinct notes remembered before they may repeat. */
const MAX_NOTES = 200

/**
 * One server's bounded log: its stderr, launch output and the console's own notes about it,
 * every line passed through the redactor; the oldest lines go first.
 */
export class ServerLog {
  private readonly entries: PoolLogLine[] = []
  private readonly notes = new Set<string>()

  constructor(
    private readonly max: number,
    private readonly now: () => number,
    private readonly redactor?: Redactor,
    private readonly logger?: Logger,
  ) {}

  push(stream: PoolLogStream, text: string): void {
    const clean = this.redactor ? this.redactor.redact(text) : text
    const trimmed = clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT)}…` : clean
    this.entries.push({ at: this.now(), stream, text: trimmed })
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max)
  }

  /** A remark of the console about this server, kept once however often it recurs. */
  note(text: string): void {
    if (this.notes.has(text)) return
    if (this.notes.size >= MAX_NOTES) this.notes.clear()
    this.notes.add(text)
    this.push('pool', text)
    this.logger?.info(this.redactor ? this.redactor.redact(text) : text)
  }

  /** The last `limit` lines (all when omitted), oldest first. */
  lines(limit?: number): PoolLogLine[] {
    const start = limit === undefined ? 0 : Math.max(0, this.entries.length - limit)
    return this.entries.slice(start)
  }
}
