import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import { redactedJson } from '../secrets/redactor'
import type { Redactor } from '../secrets/types'
import type { Clock } from './clock'

/** Characters of a message kept in the entry itself. */
export const PREVIEW_CHARS = 2048
/** Whole messages kept for {@link ProtocolLog.full}, in characters per server. */
const FULL_BUDGET = 8 * 1024 * 1024
/** Characters the protocol logs of one pool keep together, previews and whole texts. */
export const POOL_LOG_CHARS = 64 * 1024 * 1024

export interface ProtocolLogOptions {
  /** Entries kept; the oldest go first. */
  max: number
  now: () => number
  redactor?: Redactor
  /** Every entry as it is added. */
  onEntry?: (entry: ProtocolEntry) => void
  /** Messages wait for their entries until the next turn, longer while it is held (see {@link LogDeferral}). */
  deferral?: LogDeferral
  /** What this log keeps counts toward it, with the other logs of the pool. */
  budget?: LogBudget
}

/**
 * The characters the protocol logs of a pool keep, counted together: each log's ring and
 * whole-text budget bound one server, this bounds them all (200 servers × (1,000 entries of
 * 2 KB previews + 8 MB of whole texts) would be ~2 G characters). Past {@link limit} the pool's
 * oldest entries go, whichever server's they are.
 */
export class LogBudget {
  /** Characters kept now. */
  used = 0
  /** Every entry kept, in the order they were added across logs (some since dropped). */
  private queue: { log: ProtocolLog; seq: number }[] = []
  private head = 0
  /** Entries kept now. */
  private live = 0

  constructor(readonly limit = POOL_LOG_CHARS) {}

  /** `log` kept entry `seq` of `chars` characters: the oldest go while over the limit. */
  added(log: ProtocolLog, seq: number, chars: number): void {
    this.used += chars
    this.live++
    this.queue.push({ log, seq })
    while (this.used > this.limit && this.head < this.queue.length) {
      const oldest = this.queue[this.head++]!
      // Its log's own oldest when still kept: everything of that log before it came earlier.
      if (oldest.log.keeps(oldest.seq)) oldest.log.dropOldest()
    }
    this.compact()
  }

  /** A log let go of `chars` characters; `entries` of them went with them. */
  freed(chars: number, entries = 0): void {
    this.used -= chars
    this.live -= entries
  }

  /** Drops what the queue holds of entries already gone, so it stays near the entries kept. */
  private compact(): void {
    const pending = this.queue.length - this.head
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head)
      this.head = 0
    } else if (pending > 2 * this.live + 1024) {
      this.queue = this.queue.slice(this.head).filter((item) => item.log.keeps(item.seq))
      this.head = 0
    }
  }
}

/** The longest a held message waits before its entry is worked out anyway (ms). */
export const MAX_DEFER_MS = 1000

/**
 * Keeps the protocol logs' work off the path of the calls. A message that comes or goes is kept
 * as it is (with the time it passed) and its entry — the JSON text, the redaction, the preview —
 * is worked out in the next turn, once the caller that waited on it has continued (a caller
 * that sends one request after another has sent its next one, and the server works on it while
 * the console logs); or when its log is read. ~3 % of a stdio call's time, on a loaded machine.
 *
 * While an operation of the services runs, its hold (one per operation: a search over 100
 * servers is one) keeps the messages waiting until a turn after it ends, right after it has
 * answered, or {@link MAX_DEFER_MS} at the latest: the work no longer runs while the other
 * servers' replies wait to be read (~15 % of the console's time while the last replies of a
 * 100-server search come in). Each operation's end works out everything that came before it,
 * even while other operations still run: under steady load (an evaluation's searches side by
 * side) nothing would otherwise end the wait but the timer, and a second of replies would
 * outlive the young generation.
 */
export class LogDeferral {
  /**
   * Counts the holds taken and released: a waiting message carries the count of its time, so
   * the turn after a release works out what came before it and not what the operations still
   * running (or the next one, already started) send; and the turn after a message passed with no
   * hold on works out what came before the next hold.
   */
  epoch = 0
  private holds = 0
  private readonly waiting = new Set<ProtocolLog>()
  private timer: unknown
  /** Releases before this count are worked out in the turn already asked for. */
  private settling: number | undefined

  constructor(private readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>) {}

  /** Holds the logs until the returned release is called (once; later calls do nothing). */
  hold(): () => void {
    this.holds++
    // What passed before the hold is not held by it: the turn asked for it still works it out.
    this.epoch++
    let released = false
    return () => {
      if (released) return
      released = true
      this.holds--
      const before = ++this.epoch
      if (this.waiting.size > 0) this.soon(before)
    }
  }

  /** `log` has a message waiting: worked out the turn after, or when the holds let it. */
  enlist(log: ProtocolLog): void {
    this.waiting.add(log)
    if (this.holds === 0) this.soon(this.epoch + 1)
    else
      this.timer ??= this.clock.setTimeout(() => {
        this.timer = undefined
        this.settle()
      }, MAX_DEFER_MS)
  }

  /**
   * Asks for the messages that came before number `before` to be worked out in the next turn,
   * after whoever waits on them has its answer (that runs in the microtasks after this). Several
   * asks in one turn share one settling, of all that came before the latest.
   */
  private soon(before: number): void {
    if (this.settling !== undefined) {
      if (before > this.settling) this.settling = before
      return
    }
    this.settling = before
    setImmediate(() => {
      const upTo = this.settling
      this.settling = undefined
      this.settle(upTo)
    })
  }

  /**
   * Works out the entries of the messages waiting since before release number `before` (all,
   * by default): log by log, in the order their first passed. What is left waits under a new
   * timer.
   */
  settle(before = Infinity): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer)
    this.timer = undefined
    const logs = [...this.waiting]
    this.waiting.clear()
    for (const log of logs) {
      log.settle(before)
      if (log.isWaiting) this.enlist(log)
    }
  }
}

/** A message or event that waits for its entry, in the order it happened. */
type Pending =
  | { op: 'in'; message: JSONRPCMessage; at: number }
  | { op: 'out'; message: JSONRPCMessage; at: number; operation: string | undefined }
  | { op: 'http'; exchange: HttpExchange }
  | { op: 'stderr' | 'note'; text: string; at: number }

/** …with the number of hold releases before it (see {@link LogDeferral.epoch}). */
type Waiting = Pending & { epoch: number }

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
  /** What waits for its entry (until the next turn, or while the pool's logs are held), oldest first. */
  private waiting: Waiting[] = []
  private readonly deferral: LogDeferral | undefined

  constructor(private readonly options: ProtocolLogOptions) {
    this.deferral = options.deferral
  }

  /** A message the console sent; `operation`: the console operation that sent it, if known. */
  out(message: JSONRPCMessage, operation?: string): void {
    if (this.deferral) {
      this.wait({ op: 'out', message, at: this.options.now(), operation })
    } else this.logOut(message, this.options.now(), operation)
  }

  /** A message the server sent. */
  in(message: JSONRPCMessage): void {
    if (this.deferral) {
      this.wait({ op: 'in', message, at: this.options.now() })
    } else this.logIn(message, this.options.now())
  }

  /** A stderr line of a stdio server. */
  stderr(text: string): void {
    this.line('stderr', text, this.options.now())
  }

  /** Something the console did about the traffic that no message shows (a declined form). */
  note(text: string): void {
    this.line('note', text, this.options.now())
  }

  /** Puts the HTTP status and added headers on the latest outgoing entry they belong to. */
  http(exchange: HttpExchange): void {
    if (this.waiting.length > 0) {
      // Its request may be waiting too: the exchange follows it.
      this.wait({ op: 'http', exchange })
      return
    }
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
    this.settle()
    return this.entries.filter((entry) => entry.seq > afterSeq)
  }

  /** One entry and its whole message text (`null` when no longer kept). */
  entry(seq: number): { entry: ProtocolEntry; full: string | null } | undefined {
    this.settle()
    const entry = this.entries.find((e) => e.seq === seq)
    if (!entry) return undefined
    return { entry, full: entry.truncated ? (this.full.get(seq) ?? null) : entry.text }
  }

  /** Drops every entry; returns how many there were. */
  clear(): number {
    const count = this.entries.length + this.waiting.filter((w) => w.op !== 'http').length
    let chars = this.fullChars
    for (const entry of this.entries) chars += entry.text.length
    this.options.budget?.freed(chars, this.entries.length)
    this.entries = []
    this.waiting = []
    this.sent.clear()
    this.full.clear()
    this.fullChars = 0
    return count
  }

  /** Whether entry `seq` is still kept (entries go oldest first). */
  keeps(seq: number): boolean {
    return this.entries.length > 0 && this.entries[0]!.seq <= seq && seq < this.seq
  }

  /** Lets the oldest entry go (for the pool's {@link LogBudget}). */
  dropOldest(): void {
    const oldest = this.entries.shift()
    if (oldest) this.drop(oldest)
  }

  /** Whether messages wait for their entries. */
  get isWaiting(): boolean {
    return this.waiting.length > 0
  }

  /**
   * Works out the entries of the waiting messages, in the order they came: all of them, or
   * those that came before hold release number `before`.
   */
  settle(before = Infinity): void {
    if (this.waiting.length === 0) return
    let count = this.waiting.length
    if (before !== Infinity) {
      count = this.waiting.findIndex((item) => item.epoch >= before)
      if (count === -1) count = this.waiting.length
    }
    const due = this.waiting.slice(0, count)
    // Replayed with nothing waiting, so each goes straight to its entry; the rest waits on.
    const rest = this.waiting.slice(count)
    this.waiting = []
    for (const item of due) {
      if (item.op === 'http') this.http(item.exchange)
      else if (item.op === 'in') this.logIn(item.message, item.at)
      else if (item.op === 'out') this.logOut(item.message, item.at, item.operation)
      else this.line(item.op, item.text, item.at)
    }
    this.waiting = rest
  }

  private logOut(message: JSONRPCMessage, at: number, operation: string | undefined): void {
    const entry = this.add('out', message, at, operation)
    if (entry.kind === 'request' && entry.id !== undefined) {
      this.sent.set(String(entry.id), entry)
    }
  }

  private logIn(message: JSONRPCMessage, at: number): void {
    // A reply belongs to the operation of its request.
    const request =
      'id' in message && !('method' in message) ? this.sent.get(String(message.id)) : undefined
    const entry = this.add('in', message, at, request?.operation)
    if ((entry.kind === 'response' || entry.kind === 'error') && entry.id !== undefined) {
      this.sent.delete(String(entry.id))
      if (request) entry.durationMs = entry.at - request.at
    }
  }

  /** A stderr line or a note: waits behind waiting messages, else becomes its entry. */
  private line(op: 'stderr' | 'note', text: string, at: number): void {
    if (this.waiting.length > 0) {
      this.wait({ op, text, at })
      return
    }
    const fields =
      op === 'stderr'
        ? ({ direction: 'stderr', kind: 'stderr' } as const)
        : ({ direction: 'out', kind: 'note' } as const)
    this.push(fields, this.redact(text), Buffer.byteLength(text), at)
  }

  private wait(pending: Pending): void {
    const item = pending as Waiting
    item.epoch = this.deferral?.epoch ?? 0
    this.waiting.push(item)
    this.deferral?.enlist(this)
    // A ring's worth waiting: older ones would only be dropped, so work them out now.
    if (this.waiting.length >= this.options.max) this.settle()
  }

  private add(
    direction: 'out' | 'in',
    message: JSONRPCMessage,
    at: number,
    operation: string | undefined,
  ): ProtocolEntry {
    const raw = JSON.stringify(message)
    const fields: Partial<ProtocolEntry> & Pick<ProtocolEntry, 'direction' | 'kind'> = {
      direction,
      kind: kindOf(message),
    }
    if (operation !== undefined) fields.operation = operation
    if ('method' in message) fields.method = message.method
    if ('id' in message && (typeof message.id === 'string' || typeof message.id === 'number')) {
      fields.id = message.id
    }
    if (fields.method === 'notifications/message') {
      const level = (message as { params?: { level?: unknown } }).params?.level
      if (typeof level === 'string') fields.level = level
    }
    const redactor = this.options.redactor
    const text = redactor ? redactedJson(redactor, message, raw).text : raw
    return this.push(fields, text, Buffer.byteLength(raw), at)
  }

  private push(
    fields: Partial<ProtocolEntry> & Pick<ProtocolEntry, 'direction' | 'kind'>,
    text: string,
    size: number,
    at: number,
  ): ProtocolEntry {
    const truncated = text.length > PREVIEW_CHARS
    const entry: ProtocolEntry = {
      ...fields,
      seq: this.seq++,
      at,
      size,
      text: truncated ? text.slice(0, PREVIEW_CHARS) : text,
      truncated,
    }
    this.entries.push(entry)
    const kept = truncated ? this.keepFull(entry.seq, text) : 0
    // One at a time: V8 drops an array's head in place, where splice copies the whole ring.
    while (this.entries.length > this.options.max) this.drop(this.entries.shift()!)
    this.options.onEntry?.(entry)
    this.options.budget?.added(this, entry.seq, entry.text.length + kept)
    return entry
  }

  private drop(entry: ProtocolEntry): void {
    this.dropFull(entry.seq)
    this.options.budget?.freed(entry.text.length, 1)
    // Ids come again after a reconnect: only this entry's own record goes.
    const key = String(entry.id)
    if (entry.kind === 'request' && this.sent.get(key) === entry) this.sent.delete(key)
  }

  /** Keeps a whole text within the log's budget; returns its length, or 0 when not kept. */
  private keepFull(seq: number, text: string): number {
    if (text.length > FULL_BUDGET) return 0
    this.full.set(seq, text)
    this.fullChars += text.length
    for (const oldest of this.full.keys()) {
      // Never `seq` itself: it fits the budget alone. It counts toward the pool with its entry.
      if (this.fullChars <= FULL_BUDGET) break
      this.dropFull(oldest)
    }
    return text.length
  }

  private dropFull(seq: number): void {
    const text = this.full.get(seq)
    if (text === undefined) return
    this.full.delete(seq)
    this.fullChars -= text.length
    this.options.budget?.freed(text.length)
  }

  private redact<T>(value: T): T {
    return this.options.redactor ? this.options.redactor.redact(value) : value
  }
}

function kindOf(message: JSONRPCMessage): ProtocolEntry['kind'] {
  if ('method' in message) return 'id' in message ? 'request' : 'notification'
  return 'error' in message ? 'error' : 'response'
}
