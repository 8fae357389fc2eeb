import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { ProtocolEntry } from '../../../shared/ipc/workbench'
import type { Redactor } from '../secrets/types'

/** Characters of a message kept in the entry itself. */
export const PREVIEW_CHARS = 2048
/** Whole messages kept for {@link ProtocolLog.full}, in characters per server. */
const FULL_BUDGET = 8 * 1024 * 1024

export interface ProtocolLogOptions {
  /** Entries kept; the oldest go first. */
  max: number
  now: () => number
  redactor?: Redactor
  /** Every entry as it is added. */
  onEntry?: (entry: ProtocolEntry) => void
}

/** What the HTTP layer saw of the POST that carried a message. */
export interface HttpExchange {
  method?: string
  id?: string | number
  status: number
  /** Headers the console added (config headers and the acting user's). */
  headers: Record<string, string>
}

/**
 * One server's JSON-RPC traffic, bounded: a ring of redacted entries with a preview of each
 * message, plus the whole text of recent large messages within a character budget.
 */
export class ProtocolLog {
  private entries: ProtocolEntry[] = []
  private readonly full = new Map<number, string>()
  private fullChars = 0
  private seq = 0
  /**
   * Request id → its entry, for the reply's duration; an unanswered request is forgotten when
   * its entry leaves the ring.
   */
  private readonly sent = new Map<string, ProtocolEntry>()

  constructor(private readonly options: ProtocolLogOptions) {}

  /** A message the console sent. */
  out(message: JSONRPCMessage): void {
    const entry = this.add('out', message)
    if (entry.kind === 'request' && entry.id !== undefined) {
      this.sent.set(String(entry.id), entry)
    }
  }

  /** A message the server sent. */
  in(message: JSONRPCMessage): void {
    const entry = this.add('in', message)
    if ((entry.kind === 'response' || entry.kind === 'error') && entry.id !== undefined) {
      const request = this.sent.get(String(entry.id))
      this.sent.delete(String(entry.id))
      if (request) entry.durationMs = entry.at - request.at
    }
  }

  /** A stderr line of a stdio server. */
  stderr(text: string): void {
    this.push({ direction: 'stderr', kind: 'stderr' }, this.redact(text), Buffer.byteLength(text))
  }

  /** Something the console did about the traffic that no message shows (a declined form). */
  note(text: string): void {
    this.push({ direction: 'out', kind: 'note' }, this.redact(text), Buffer.byteLength(text))
  }

  /** Puts the HTTP status and added headers on the latest outgoing entry they belong to. */
  http(exchange: HttpExchange): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i]!
      if (entry.direction !== 'out' || entry.httpStatus !== undefined) continue
      const same =
        exchange.id !== undefined ? entry.id === exchange.id : entry.method === exchange.method
      if (!same) continue
      entry.httpStatus = exchange.status
      entry.headers = this.redact(exchange.headers)
      // Announced again: whoever saw the request before its response needs these too.
      this.options.onEntry?.(entry)
      return
    }
  }

  /** Entries oldest first; only those after `afterSeq` when given. */
  list(afterSeq = -1): ProtocolEntry[] {
    return this.entries.filter((entry) => entry.seq > afterSeq)
  }

  /** One entry and its whole message text (`null` when no longer kept). */
  entry(seq: number): { entry: ProtocolEntry; full: string | null } | undefined {
    const entry = this.entries.find((e) => e.seq === seq)
    if (!entry) return undefined
    return { entry, full: entry.truncated ? (this.full.get(seq) ?? null) : entry.text }
  }

  /** Drops every entry; returns how many there were. */
  clear(): number {
    const count = this.entries.length
    this.entries = []
    this.sent.clear()
    this.full.clear()
    this.fullChars = 0
    return count
  }

  private add(direction: 'out' | 'in', message: JSONRPCMessage): ProtocolEntry {
    const raw = JSON.stringify(message)
    const fields: Partial<ProtocolEntry> & Pick<ProtocolEntry, 'direction' | 'kind'> = {
      direction,
      kind: kindOf(message),
    }
    if ('method' in message) fields.method = message.method
    if ('id' in message && (typeof message.id === 'string' || typeof message.id === 'number')) {
      fields.id = message.id
    }
    if (fields.method === 'notifications/message') {
      const level = (message as { params?: { level?: unknown } }).params?.level
      if (typeof level === 'string') fields.level = level
    }
    const redactor = this.options.redactor
    const clean = redactor?.redactJson ? redactor.redactJson(message, raw) : this.redact(message)
    const text = clean === message ? raw : JSON.stringify(clean)
    return this.push(fields, text, Buffer.byteLength(raw))
  }

  private push(
    fields: Partial<ProtocolEntry> & Pick<ProtocolEntry, 'direction' | 'kind'>,
    text: string,
    size: number,
  ): ProtocolEntry {
    const truncated = text.length > PREVIEW_CHARS
    const entry: ProtocolEntry = {
      ...fields,
      seq: this.seq++,
      at: this.options.now(),
      size,
      text: truncated ? text.slice(0, PREVIEW_CHARS) : text,
      truncated,
    }
    this.entries.push(entry)
    if (truncated) this.keepFull(entry.seq, text)
    // One at a time: V8 drops an array's head in place, where splice copies the whole ring.
    while (this.entries.length > this.options.max) this.drop(this.entries.shift()!)
    this.options.onEntry?.(entry)
    return entry
  }

  private drop(entry: ProtocolEntry): void {
    this.dropFull(entry.seq)
    // Ids come again after a reconnect: only this entry's own record goes.
    const key = String(entry.id)
    if (entry.kind === 'request' && this.sent.get(key) === entry) this.sent.delete(key)
  }

  private keepFull(seq: number, text: string): void {
    if (text.length > FULL_BUDGET) return
    this.full.set(seq, text)
    this.fullChars += text.length
    for (const oldest of this.full.keys()) {
      if (this.fullChars <= FULL_BUDGET) break
      this.dropFull(oldest)
    }
  }

  private dropFull(seq: number): void {
    const text = this.full.get(seq)
    if (text === undefined) return
    this.full.delete(seq)
    this.fullChars -= text.length
  }

  private redact<T>(value: T): T {
    return this.options.redactor ? this.options.redactor.redact(value) : value
  }
}

function kindOf(message: JSONRPCMessage): ProtocolEntry['kind'] {
  if ('method' in message) return 'id' in message ? 'request' : 'notification'
  return 'error' in message ? 'error' : 'response'
}
