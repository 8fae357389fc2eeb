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
 * How long the console must have added no entry to any log before the entries nobody read yet
 * are serialised and redacted (ms).
 */
export const QUIET_MS = 30
/** Entries of one log left unserialised at most; past it they are all done at once. */
export const PENDING_MAX = 256

/**
 * One server's JSON-RPC traffic, bounded: a ring of redacted entries with a preview of each
 * message, plus the whole text of recent large messages within a character budget.
 *
 * A message's entry is recorded at once (time, direction, kind, method, id, the reply's
 * duration), but its text — the JSON, redacted, and its size — is worked out when someone first
 * reads it, or once the console has been quiet for {@link QUIET_MS}: serialising and redacting
 * every reply of a 100-server search cost ~12 % of the console's time while the last replies
 * were read, work no one waits for unless the protocol log is open. An entry the ring drops
 * before then is never serialised.
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
  /** Entries whose text is not worked out yet, oldest first: seq → what works it out. */
  private readonly pending = new Map<number, () => void>()

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

  /** Works out the text of every entry not read yet (when the console is quiet). */
  settleAll(): void {
    for (const settle of [...this.pending.values()]) settle()
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
    this.pending.clear()
    this.full.clear()
    this.fullChars = 0
    return count
  }

  private add(direction: 'out' | 'in', message: JSONRPCMessage): ProtocolEntry {
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
    const entry = { ...fields, seq: this.seq++, at: this.options.now() } as ProtocolEntry
    let settled = false
    const settle = (): void => {
      if (settled) return
      settled = true
      this.pending.delete(entry.seq)
      const { text, size } = this.render(message)
      this.setText(entry, text, size, this.holds(entry))
    }
    const lazy = (key: 'size' | 'text' | 'truncated'): PropertyDescriptor => ({
      enumerable: true,
      configurable: true,
      get(this: ProtocolEntry) {
        settle()
        return this[key]
      },
    })
    Object.defineProperties(entry, {
      size: lazy('size'),
      text: lazy('text'),
      truncated: lazy('truncated'),
    })
    this.pending.set(entry.seq, settle)
    this.enter(entry)
    if (this.pending.size > PENDING_MAX) this.settleAll()
    else settleWhenQuiet(this)
    return entry
  }

  /** A message's JSON text, redacted, and its size in bytes. */
  private render(message: JSONRPCMessage): { text: string; size: number } {
    let raw: string
    try {
      raw = JSON.stringify(message)
    } catch (error) {
      const text = `[message not serialisable: ${error instanceof Error ? error.message : String(error)}]`
      return { text, size: 0 }
    }
    const redactor = this.options.redactor
    const clean = redactor?.redactJson ? redactor.redactJson(message, raw) : this.redact(message)
    return { text: clean === message ? raw : JSON.stringify(clean), size: Buffer.byteLength(raw) }
  }

  private push(
    fields: Partial<ProtocolEntry> & Pick<ProtocolEntry, 'direction' | 'kind'>,
    text: string,
    size: number,
  ): ProtocolEntry {
    const entry = { ...fields, seq: this.seq++, at: this.options.now() } as ProtocolEntry
    this.setText(entry, text, size, true)
    this.enter(entry)
    return entry
  }

  /** Sets an entry's preview, size and cut mark; keeps the whole text of a cut one if held. */
  private setText(entry: ProtocolEntry, text: string, size: number, held: boolean): void {
    const truncated = text.length > PREVIEW_CHARS
    const value = (of: unknown): PropertyDescriptor => ({
      value: of,
      enumerable: true,
      configurable: true,
      writable: true,
    })
    Object.defineProperties(entry, {
      size: value(size),
      text: value(truncated ? text.slice(0, PREVIEW_CHARS) : text),
      truncated: value(truncated),
    })
    if (truncated && held) this.keepFull(entry.seq, text)
  }

  /** Whether the ring still holds the entry (it holds a run of sequence numbers). */
  private holds(entry: ProtocolEntry): boolean {
    const oldest = this.entries[0]
    return oldest !== undefined && entry.seq >= oldest.seq && entry.seq < this.seq
  }

  private enter(entry: ProtocolEntry): void {
    this.entries.push(entry)
    // One at a time: V8 drops an array's head in place, where splice copies the whole ring.
    while (this.entries.length > this.options.max) this.drop(this.entries.shift()!)
    this.options.onEntry?.(entry)
  }

  private drop(entry: ProtocolEntry): void {
    this.pending.delete(entry.seq)
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

/** Logs with entries not worked out yet, and when the last entry of any log came. */
const waiting = new Set<ProtocolLog>()
let lastAdded = 0
let quietTimer: NodeJS.Timeout | undefined

/** Works out the waiting entries once no log has had an entry for {@link QUIET_MS}. */
function settleWhenQuiet(log: ProtocolLog): void {
  waiting.add(log)
  lastAdded = Date.now()
  quietTimer ??= arm(QUIET_MS)
}

function arm(ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    const left = lastAdded + QUIET_MS - Date.now()
    if (left > 0) {
      quietTimer = arm(left)
      return
    }
    quietTimer = undefined
    const logs = [...waiting]
    waiting.clear()
    for (const log of logs) log.settleAll()
  }, ms)
  // The work waits for a quiet console; it never keeps a process alive (a read does it at once).
  timer.unref?.()
  return timer
}

function kindOf(message: JSONRPCMessage): ProtocolEntry['kind'] {
  if ('method' in message) return 'id' in message ? 'request' : 'notification'
  return 'error' in message ? 'error' : 'response'
}
