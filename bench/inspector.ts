import WebSocket from 'ws'

/** What a Node process started with `--inspect=127.0.0.1:0` prints on stderr. */
const LISTENING = /^Debugger listening on (ws:\/\/\S+)/

/** The DevTools URL in a stderr line of a process started with `--inspect`, if it is that line. */
export function inspectorUrl(line: string): string | undefined {
  return LISTENING.exec(line)?.[1]
}

/** Lines Node's inspector itself prints on stderr, which are not the program's output. */
const NOTICE =
  /^(Debugger listening on |For help, see: https:\/\/nodejs\.org\/|Debugger attached\.|Waiting for the debugger to disconnect)/

export function isInspectorNotice(line: string): boolean {
  return NOTICE.test(line)
}

/** Memory of the inspected process right after a full garbage collection. */
export interface CollectedMemory {
  heapUsedMB: number
  rssMB: number
}

/**
 * A Chrome DevTools Protocol session with another Node process: the benchmark forces its full
 * GC and reads its memory from outside, so product code needs no test hook.
 */
export class Inspector {
  private nextId = 1
  private readonly waiting = new Map<
    number,
    { resolve: (result: unknown) => void; reject: (error: Error) => void }
  >()

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const reply = JSON.parse(String(data)) as {
        id?: number
        result?: unknown
        error?: { message: string }
      }
      const waiter = reply.id === undefined ? undefined : this.waiting.get(reply.id)
      if (!waiter) return
      this.waiting.delete(reply.id!)
      if (reply.error) waiter.reject(new Error(`inspector: ${reply.error.message}`))
      else waiter.resolve(reply.result)
    })
    socket.on('close', () => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error('inspector closed'))
      this.waiting.clear()
    })
  }

  static async connect(url: string): Promise<Inspector> {
    const socket = new WebSocket(url)
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    return new Inspector(socket)
  }

  send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: (r) => resolve(r as T), reject })
      this.socket.send(JSON.stringify({ id, method, params }))
    })
  }

  /** Forces a full GC in the process, then reads its heap used and resident set. */
  async memoryAfterGc(): Promise<CollectedMemory> {
    await this.send('HeapProfiler.collectGarbage')
    const { result } = await this.send<{ result: { value: string } }>('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    })
    const usage = JSON.parse(result.value) as { heapUsed: number; rss: number }
    return { heapUsedMB: usage.heapUsed / 2 ** 20, rssMB: usage.rss / 2 ** 20 }
  }

  close(): void {
    this.socket.close()
  }
}
