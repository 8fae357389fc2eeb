import type { PoolLogLine, PoolLogStream } from '../../../shared/ipc/servers'

/** Longest line kept, in characters. */
const MAX_TEXT = 4096

/** A bounded log of one server's output lines; the oldest lines go first. */
export class LineLog {
  private readonly entries: PoolLogLine[] = []

  constructor(
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  push(stream: PoolLogStream, text: string): void {
    const trimmed = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text
    this.entries.push({ at: this.now(), stream, text: trimmed })
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max)
  }

  /** The last `limit` lines (all when omitted), oldest first. */
  lines(limit?: number): PoolLogLine[] {
    const start = limit === undefined ? 0 : Math.max(0, this.entries.length - limit)
    return this.entries.slice(start)
  }

  /** The last few lines as one string, for error messages. */
  tail(count: number, streams?: PoolLogStream[]): string {
    return this.entries
      .filter((line) => !streams || streams.includes(line.stream))
      .slice(-count)
      .map((line) => line.text)
      .join(' | ')
  }
}
