import { ConsoleError, type ErrorInfo } from '#shared/errors'
import type { AuditEntry } from '#shared/model/operations'
import type { ActingUser } from '#shared/model/user'
import type { CallOptions, RawToolResult, ServerSession } from '../pool/types'

/** Where audit lines go (the {@link AuditLog} in the core). */
export interface AuditSink {
  record(entry: AuditEntry): void
  /** Writes what {@link record} may have held back (lines are batched per tick). */
  flush?(): void
}

/** What one operation on one server is, for its audit lines. */
export interface AuditContext {
  user: ActingUser
  /** `discover`, `search`, `synthesize`, `verify`. */
  operation: string
  /** The sources the operation asked for (a call naming its own `sources` overrides them). */
  sources: string[]
  /** The console started it by itself (see {@link AuditEntry.automatic}). */
  automatic?: boolean
}

/** How the operation ended, known only once the adapter has read the replies. */
export interface OperationOutcome {
  error?: unknown
  /** Items the operation produced (hits, sources, citations). */
  resultCount?: number | undefined
  /** Refusals of single sources inside a usable reply. */
  sourceErrors?: { sourceId: string; error: ErrorInfo }[]
}

interface CallRecord {
  at: number
  tool: string
  sources: string[]
  latencyMs: number
  error?: ConsoleError
  /** The error a negative probe asked for and got (not a failure). */
  expected?: ConsoleError
  /**
   * The reply (a session lives for one operation): its list's items are counted (without
   * knowing the family) only for the line of a multi-call operation; a single call's line takes
   * the operation's own count, so a search does not parse each reply's text a second time.
   */
  reply?: unknown
}

const LIST_KEYS = [
  'segments',
  'hits',
  'resources',
  'documents',
  'results',
  'citations',
  'sources',
  'contents',
  'items',
]

/**
 * A {@link ServerSession} that records every call the adapter makes through it and writes one
 * audit line per call once the operation has {@link settle}d (the adapter decides whether a
 * reply was a failure, e.g. an `unauthorized_user` inside a v2 envelope, so the lines wait for
 * it). Lines hold only who, which server, operation, tool, source ids, outcome, error code,
 * latency and a count: never arguments, queries, replies or credentials.
 */
export class AuditedSession implements ServerSession {
  private readonly records: CallRecord[] = []
  private readonly inFlight = new Set<Promise<unknown>>()
  private settled = false
  private written = false

  constructor(
    private readonly inner: ServerSession,
    private readonly sink: AuditSink,
    private readonly context: AuditContext,
    private readonly now: () => number = Date.now,
  ) {}

  get serverId(): string {
    return this.inner.serverId
  }

  get config(): ServerSession['config'] {
    return this.inner.config
  }

  get tools(): ServerSession['tools'] {
    return this.inner.tools
  }

  get serverInfo(): ServerSession['serverInfo'] {
    return this.inner.serverInfo
  }

  callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RawToolResult> {
    return this.track(name, sourcesArg(args), options, () =>
      this.inner.callTool(name, args, options),
    )
  }

  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<unknown> {
    return this.track(method, undefined, options, () => this.inner.request(method, params, options))
  }

  /**
   * Writes the lines of this operation once its calls have finished (an aborted call finishes
   * shortly after its signal fires). When the operation failed, its last call carries the
   * operation's error code; a failed operation that made no call gets one line without a tool.
   * A call that still starts afterwards is written as it ends. Resolves when the lines are
   * written.
   */
  async settle(outcome: OperationOutcome): Promise<void> {
    if (this.settled) return
    this.settled = true
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight])
    for (const entry of this.entries(outcome)) this.sink.record(entry)
    this.written = true
  }

  private entries(outcome: OperationOutcome): AuditEntry[] {
    if (this.records.length === 0) {
      // Nothing went over the wire: only a failure is worth a line.
      return outcome.error === undefined
        ? []
        : [attemptEntry(this.serverId, this.context, outcome, this.now())]
    }
    const failure = outcome.error === undefined ? undefined : ConsoleError.from(outcome.error)
    const refused = outcome.sourceErrors?.[0]?.error.code
    const single = this.records.length === 1
    return this.records.map((record, index) => {
      const last = index === this.records.length - 1
      const error = last && failure ? failure : record.error
      const count = single ? outcome.resultCount : countItems(record.reply)
      return this.line(record, error, error ? undefined : refused, count)
    })
  }

  private line(
    record: CallRecord,
    error: ConsoleError | undefined,
    refused: string | undefined,
    count: number | undefined,
  ): AuditEntry {
    const entry: AuditEntry = {
      at: new Date(record.at).toISOString(),
      user: this.context.user.userId,
      server: this.serverId,
      operation: this.context.operation,
      tool: record.tool,
      outcome: error ? 'error' : 'ok',
      latencyMs: record.latencyMs,
    }
    if (!error && record.expected) entry.expectedError = record.expected.code
    if (record.sources.length > 0) entry.sources = record.sources
    if (error) entry.errorCode = error.code
    else if (refused) entry.errorCode = refused
    if (count !== undefined && !error) entry.resultCount = count
    if (this.context.automatic) entry.automatic = true
    return entry
  }

  private async track<T>(
    tool: string,
    sources: string[] | undefined,
    options: CallOptions,
    call: () => Promise<T>,
  ): Promise<T> {
    const started = this.now()
    const record: CallRecord = {
      at: started,
      tool,
      sources: sources ?? [...this.context.sources],
      latencyMs: 0,
    }
    // Registered before the call starts, released once the record is in: settle waits on it.
    let release: () => void = () => undefined
    const done = new Promise<void>((resolve) => (release = resolve))
    this.inFlight.add(done)
    try {
      const value = await call()
      record.reply = value
      return value
    } catch (error) {
      const failure = ConsoleError.from(error)
      // An answer from the server is what a negative probe asked for; a timeout is not.
      if (options.expectsError && failure.origin === 'server') record.expected = failure
      else record.error = failure
      throw error
    } finally {
      record.latencyMs = this.now() - started
      this.records.push(record)
      this.inFlight.delete(done)
      release()
      if (this.written) {
        this.sink.record(this.line(record, record.error, undefined, countItems(record.reply)))
      }
    }
  }
}

/**
 * The one line of an operation that made no call (the server could not be reached, or the
 * operation was cancelled first): who tried what, and why it failed.
 */
export function attemptEntry(
  server: string,
  context: AuditContext,
  outcome: OperationOutcome,
  at: number,
): AuditEntry {
  const failure = outcome.error === undefined ? undefined : ConsoleError.from(outcome.error)
  const entry: AuditEntry = {
    at: new Date(at).toISOString(),
    user: context.user.userId,
    server,
    operation: context.operation,
    outcome: failure ? 'error' : 'ok',
    latencyMs: 0,
  }
  if (context.sources.length > 0) entry.sources = [...context.sources]
  if (failure) entry.errorCode = failure.code
  if (context.automatic) entry.automatic = true
  return entry
}

function sourcesArg(args: Record<string, unknown>): string[] | undefined {
  const sources = args.sources
  return Array.isArray(sources) && sources.every((s) => typeof s === 'string')
    ? [...sources]
    : undefined
}

/**
 * The length of the list a reply carries, wherever the families put it: at the top level
 * (`segments`), in `structuredContent` or a JSON text block, directly or under `results`.
 */
export function countItems(raw: unknown): number | undefined {
  const candidates: unknown[] = [raw]
  if (isObject(raw)) {
    candidates.push(raw.structuredContent)
    const content = raw.content
    const first = Array.isArray(content) ? content[0] : undefined
    if (isObject(first) && typeof first.text === 'string') candidates.push(parse(first.text))
  }
  for (const candidate of candidates) {
    if (Array.isArray(candidate)) return candidate.length
    if (!isObject(candidate)) continue
    for (const holder of [candidate, candidate.results]) {
      if (Array.isArray(holder)) return holder.length
      if (!isObject(holder)) continue
      const key = LIST_KEYS.find((k) => Array.isArray(holder[k]))
      if (key) return (holder[key] as unknown[]).length
    }
  }
  return undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
