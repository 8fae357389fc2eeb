import type { ChildProcess } from 'node:child_process'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { isRunning, readLines, spawnServer, terminate } from './child-process'
import { repairText, type RepairOutcome } from './repair'

/** Largest single JSON-RPC line accepted from a stdio server. */
const MAX_MESSAGE = 64 * 1024 * 1024

export interface StdioTransportOptions {
  command: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  /** Every stderr line, and stdout lines that are not JSON (servers that log to stdout). */
  onLine(stream: 'stdout' | 'stderr', text: string): void
  /** Every repaired or unusable message. */
  onRepair(outcome: RepairOutcome): void
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
 * close, and stderr kept line by line.
 */
export class StdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  sessionId?: string

  private child: ChildProcess | undefined
  private closed = false
  private exitInfo: ExitInfo | undefined

  constructor(private readonly options: StdioTransportOptions) {}

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
    readLines(child.stdout!, (line) => this.receive(line), MAX_MESSAGE)
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
    for (const outcome of repairText(text)) {
      if (outcome.fixes.length > 0 || outcome.problem) this.options.onRepair(outcome)
      if (outcome.message) this.onmessage?.(outcome.message)
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (!this.child || !stdin || !stdin.writable || !isRunning(this.child)) {
      throw new Error('the server process is not running')
    }
    if (!stdin.write(`${JSON.stringify(message)}\n`)) {
      await new Promise<void>((resolve) => stdin.once('drain', resolve))
    }
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
