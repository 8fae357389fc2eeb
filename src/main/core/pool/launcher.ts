import type { ChildProcess } from 'node:child_process'
import { connect } from 'node:net'
import { ConsoleError } from '#shared/errors'
import type { LaunchConfig } from '#shared/config/schema'
import { isRunning, readLines, spawnServer, terminate } from './child-process'
import { ReadyMatcher } from './ready-pattern'

export const DEFAULT_READY_TIMEOUT_MS = 30_000
const PORT_POLL_MS = 100

export interface LaunchOptions {
  serverId: string
  launch: LaunchConfig
  /** Environment for the process, secret references already resolved. */
  env: Record<string, string>
  /** The server's URL; its port is awaited when there is no `readyPattern`. */
  url?: string | undefined
  /** Every line the process prints. */
  onLine(text: string): void
  /** Gives up waiting (and stops the process). */
  signal?: AbortSignal
}

/**
 * A local HTTP/SSE server the console starts itself (`launch` in rag-mcp.json): started,
 * awaited until ready (its `readyPattern` printed on stdout/stderr, else its URL's port
 * accepting connections), and stopped with its process group.
 */
export class LaunchedServer {
  private exitListeners = new Set<(code: number | null, signal: string | null) => void>()

  private constructor(private readonly child: ChildProcess) {
    child.once('exit', (code, signal) => {
      for (const listener of this.exitListeners) listener(code, signal)
    })
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  get running(): boolean {
    return isRunning(this.child)
  }

  /** Called once if the process exits; returns an unsubscribe function. */
  onExit(listener: (code: number | null, signal: string | null) => void): () => unknown {
    this.exitListeners.add(listener)
    return () => this.exitListeners.delete(listener)
  }

  async stop(): Promise<void> {
    this.exitListeners.clear()
    await terminate(this.child)
  }

  /** Starts the process and resolves once it is ready; on failure nothing is left running. */
  static async start(options: LaunchOptions): Promise<LaunchedServer> {
    const { serverId, launch } = options
    const pattern = compilePattern(serverId, launch.readyPattern)
    const target = pattern ? undefined : portOf(serverId, options.url)
    const child = await spawnServer({
      command: launch.command,
      args: launch.args ?? [],
      env: options.env,
      ...(launch.cwd ? { cwd: launch.cwd } : {}),
      stdin: 'ignore',
      ownGroup: true,
    })
    const server = new LaunchedServer(child)
    const timeoutMs = launch.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS
    let lastLine = ''
    let matched: () => void = () => {}
    const patternSeen = new Promise<void>((resolve) => (matched = resolve))
    const matcher = pattern ? new ReadyMatcher(pattern.source, () => matched()) : undefined
    const onLine = (line: string): void => {
      lastLine = line || lastLine
      options.onLine(line)
      matcher?.test(line)
    }
    readLines(child.stdout!, onLine)
    readLines(child.stderr!, onLine)

    let timer: ReturnType<typeof setTimeout> | undefined
    let unsubscribe: () => unknown = () => undefined
    const controller = new AbortController()
    const failure = new Promise<never>((_, reject) => {
      const onAbort = (): void =>
        reject(
          new ConsoleError({
            code: 'cancelled',
            origin: 'local',
            server: serverId,
            message: `server ${serverId}: launch cancelled`,
          }),
        )
      if (options.signal?.aborted) onAbort()
      options.signal?.addEventListener('abort', onAbort, { once: true, signal: controller.signal })
      timer = setTimeout(() => {
        reject(
          new ConsoleError({
            code: 'timeout',
            origin: 'local',
            server: serverId,
            message: matcher?.busy
              ? `server ${serverId}: launch.readyPattern ${String(pattern)} was still matching a line of output after ${timeoutMs} ms; it backtracks too much (nested quantifiers such as (a+)+). Simplify it in rag-mcp.json`
              : `server ${serverId}: the launched command was not ready within ${timeoutMs} ms (${pattern ? `no line matched ${String(pattern)}` : `port ${target!.port} not open`}). Check "launch" in rag-mcp.json or raise readyTimeoutMs`,
          }),
        )
      }, timeoutMs)
      unsubscribe = server.onExit((code, signal) =>
        reject(
          new ConsoleError({
            code: 'unreachable',
            origin: 'local',
            server: serverId,
            message: `server ${serverId}: the launched command exited (${signal ?? `code ${code}`}) before it was ready${lastLine ? `; last output: ${lastLine.slice(0, 300)}` : ''}. Check "launch" in rag-mcp.json; its output is in its log (Servers → Show log)`,
          }),
        ),
      )
    })
    try {
      await Promise.race([
        pattern ? patternSeen : waitForPort(target!.host, target!.port, controller.signal),
        failure,
      ])
      return server
    } catch (error) {
      await server.stop()
      throw error
    } finally {
      clearTimeout(timer)
      unsubscribe()
      controller.abort()
      await matcher?.close()
      failure.catch(() => {})
    }
  }
}

function compilePattern(serverId: string, source: string | undefined): RegExp | undefined {
  if (source === undefined || source === '') return undefined
  try {
    return new RegExp(source)
  } catch (error) {
    throw new ConsoleError({
      code: 'config',
      origin: 'local',
      server: serverId,
      message: `server ${serverId}: launch.readyPattern is not a valid regular expression (${(error as Error).message}). Fix it in rag-mcp.json`,
    })
  }
}

/** The host and port a launched server listens on, from its URL. */
export function portOf(serverId: string, url: string | undefined): { host: string; port: number } {
  let parsed: URL | undefined
  try {
    parsed = url ? new URL(url) : undefined
  } catch {
    parsed = undefined
  }
  if (!parsed) {
    throw new ConsoleError({
      code: 'config',
      origin: 'local',
      server: serverId,
      message: `server ${serverId}: a launched server needs a "url" (or a launch.readyPattern) to know when it is ready`,
    })
  }
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port }
}

/** Resolves once `host:port` accepts a TCP connection; polls until aborted. */
async function waitForPort(host: string, port: number, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    if (await portOpen(host, port)) return
    await new Promise((resolve) => setTimeout(resolve, PORT_POLL_MS))
  }
}

/** Whether `host:port` accepts a TCP connection now. */
function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host, port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => {
      socket.destroy()
      resolve(false)
    })
  })
}

/**
 * Whether something already answers at a launched server's URL (another console on this
 * machine started it, or a person did): then it is used, not launched again.
 */
export function alreadyAnswering(serverId: string, url: string | undefined): Promise<boolean> {
  const { host, port } = portOf(serverId, url)
  return portOpen(host, port)
}
