import type { ChildProcess } from 'node:child_process'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { isRunning, readLines, spawnServer, terminate } from './child-process'
import { LineReader, readLinesOf, type DroppedLine } from './line-reader'
import { malformedReply, repairText, type RepairOutcome } from './repair'

/** Largest single JSON-RPC line accepted from a stdio server, by default. */
export const MAX_STDIO_MESSAGE = 64 * 1024 * 1024

/** How many cancelled request ids are remembered, to drop their late replies unparsed. */
const ABANDONED_KEPT = 64

export interface StdioTransportOptions {
  command: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  /** Every stderr line, and stdout lines that are not JSON (servers that log to stdout). */
  onLine(stream: 'stdout' | 'stderr', text: string): void
  /** Every repaired or unusable message. */
  onRepair(outcome: RepairOutcome): void
  /** What the transport did that the server log should tell (a late reply dropped). */
  onNote?(text: string): void
  /** Largest message read from the server, in bytes (default {@link MAX_STDIO_MESSAGE}). */
  maxMessageBytes?: number
}

/** How the child ended, for the error its pending calls receive. */
export interface ExitInfo {
  code: number | null
  signal: NodeJS.Signals | null
}

/**
 * MCP over a child's stdin/stdout, like the SDK's stdio transport, plus what a console needs:
 * tolerant parsing (missing `jsonrpc`, extra keys, log lines on stdout), the child's exit
 * noticed at once (pending calls fail within milliseconds), the whole process tree stopped on
 * close, and stderr kept line by line. Reading is linear in the size of a message and bounded:
 * a message over `maxMessageBytes` is not kept, and the call it answers fails at once saying
 * so; the reply to a call that timed out or was cancelled is dropped as it arrives, unparsed.
 */
export class StdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  sessionId?: string

  private child: ChildProcess | undefined
  private closed = false
  private exitInfo: ExitInfo | undefined
  /** Ids of requests sent and not answered yet. */
  private readonly outstanding = new Set<string | number>()
  /** Ids of requests the console cancelled (a timeout, a cancel), oldest first. */
  private readonly abandoned = new Set<string | number>()
  private readonly stdout: LineReader

  constructor(private readonly options: StdioTransportOptions) {
    this.stdout = new LineReader({
      maxBytes: options.maxMessageBytes ?? MAX_STDIO_MESSAGE,
      onLine: (line) => this.receive(line),
      onDropped: (dropped) => this.dropped(dropped),
    })
  }

  /** Process id of the running server, if any. */
  get pid(): number | undefined {
    return this.child && isRunning(this.child) ? this.child.pid : undefined
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('stdio transport already started')
    const child = await spawnServer({
      command: this.options.command,
      args: this.options.args,
      env: this.options.env,
      ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
      stdin: 'pipe',
      ownGroup: false,
    })
    this.child = child
    readLinesOf(child.stdout!, this.stdout)
    child.stdout!.on('data', () => this.dropIfAbandoned())
    readLines(child.stderr!, (line) => this.options.onLine('stderr', line))
    child.stdin!.on('error', (error) => this.onerror?.(error))
    child.once('exit', (code, signal) => {
      this.exitInfo = { code, signal }
      // Give stdout a moment to deliver its last replies, but never wait on grandchildren
      // that keep the pipe open.
      const timer = setTimeout(() => this.finish(), 50)
      child.once('close', () => {
        clearTimeout(timer)
        this.finish()
      })
    })
  }

  private receive(line: string): void {
    const text = line.trim()
    if (text === '') return
    if (text[0] !== '{' && text[0] !== '[') {
      this.options.onLine('stdout', line)
      return
    }
    if (this.abandoned.size > 0) {
      const id = messageId(text.slice(0, EDGE), text.slice(-EDGE))
      if (id !== undefined && this.abandoned.delete(id)) {
        this.noteDropped(id, Buffer.byteLength(line))
        return
      }
    }
    for (const outcome of repairText(text)) {
      if (outcome.fixes.length > 0 || outcome.problem) this.options.onRepair(outcome)
      if (outcome.message) {
        if (outcome.id !== undefined && !('method' in outcome.message)) {
          this.outstanding.delete(outcome.id)
        }
        this.onmessage?.(outcome.message)
      }
    }
  }

  /**
   * Stops keeping the line being read when it is the reply to a cancelled request: its id
   * comes first, or nothing but cancelled requests await a reply and it is not a request.
   */
  private dropIfAbandoned(): void {
    if (this.abandoned.size === 0 || !this.stdout.inLine) return
    const head = this.stdout.lineHead()
    const id = messageId(head, '')
    const late =
      id !== undefined ? this.abandoned.has(id) : this.outstanding.size === 0 && isReply(head)
    if (late) this.stdout.discard()
  }

  private dropped({ bytes, head, tail, why }: DroppedLine): void {
    const id = messageId(head, tail)
    if (why === 'discarded' || (id !== undefined && this.abandoned.has(id))) {
      if (id !== undefined) this.abandoned.delete(id)
      this.noteDropped(id, bytes)
      return
    }
    const limit = this.options.maxMessageBytes ?? MAX_STDIO_MESSAGE
    const problem = `a message of ${megabytes(bytes)}, larger than ${megabytes(limit)}, the most the console reads from one message: it was dropped; ask the server's maintainers to page or shorten such replies`
    if (id === undefined) {
      this.options.onRepair({ fixes: [], problem })
      return
    }
    this.outstanding.delete(id)
    const message = malformedReply(id, problem)
    this.options.onRepair({ message, fixes: [], problem, id })
    this.onmessage?.(message)
  }

  private noteDropped(id: string | number | undefined, bytes: number): void {
    const which = id === undefined ? 'a reply' : `a reply to request ${JSON.stringify(id)}`
    this.options.onNote?.(
      `dropped the rest of ${which}, which timed out or was cancelled (${megabytes(bytes)}, not parsed)`,
    )
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (!this.child || !stdin || !stdin.writable || !isRunning(this.child)) {
      throw new Error('the server process is not running')
    }
    this.track(message)
    if (!stdin.write(`${JSON.stringify(message)}\n`)) {
      await new Promise<void>((resolve) => stdin.once('drain', resolve))
    }
  }

  /** Keeps the ids of requests in flight, and of those a cancellation gave up on. */
  private track(message: JSONRPCMessage): void {
    if (!('method' in message)) return
    if ('id' in message && message.id !== undefined) {
      this.outstanding.add(message.id)
      return
    }
    const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId
    if (message.method !== 'notifications/cancelled') return
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return
    if (!this.outstanding.delete(requestId)) return
    this.abandoned.add(requestId)
    if (this.abandoned.size > ABANDONED_KEPT) {
      this.abandoned.delete(this.abandoned.values().next().value!)
    }
    this.dropIfAbandoned()
  }

  async close(): Promise<void> {
    const child = this.child
    if (child && isRunning(child)) await terminate(child)
    this.finish()
  }

  private finish(): void {
    if (this.closed) return
    this.closed = true
    this.onclose?.()
  }
}

/** How much of each end of a message is looked at for its id. */
const EDGE = 256
const ID = String.raw`(-?\d{1,20}|"[^"\\]{0,200}")`
/** `{"jsonrpc": "2.0", "id": 7, …`: the id among the first keys. */
const ID_FIRST = new RegExp(
  String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"]{0,20}"\s*,\s*)?"id"\s*:\s*${ID}`,
)
/** `…, "id": 7}`: the id as the last key of the message (as the TypeScript SDK writes it). */
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`)
/** A reply's first keys: `jsonrpc` and `id` at most, then `result` or `error`. */
const REPLY =
  /^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*(?:"[^"]{0,200}"|-?\d{1,20})\s*,\s*){0,2}"(?:result|error)"\s*:/

/** The id of a JSON-RPC message from its first and last bytes alone, when they show it. */
function messageId(head: string, tail: string): string | number | undefined {
  const found = ID_FIRST.exec(head)?.[1] ?? ID_LAST.exec(tail)?.[1]
  if (found === undefined) return undefined
  return found.startsWith('"') ? (JSON.parse(found) as string) : Number(found)
}

const isReply = (head: string): boolean => REPLY.test(head)

function megabytes(bytes: number): string {
  const mb = bytes / 2 ** 20
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
}
