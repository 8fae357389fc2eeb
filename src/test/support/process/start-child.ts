import { spawn } from 'node:child_process'
import { SAFETY_NET_MS } from './limits'

/**
 * A server program a test or benchmark started; `stop` ends it (SIGTERM, SIGKILL after 3 s).
 * Shared by the integration tests and the benchmarks, so it imports no test runner.
 */
export interface Child<T> {
  /** What `ready` extracted from the output. */
  ready: T
  /** Every stdout/stderr line so far; it keeps growing while the program runs. */
  lines: string[]
  /** Its process id (a benchmark reads its CPU time from /proc). */
  pid: number
  stop(): Promise<void>
}

/**
 * Runs `node …args` and resolves once `ready` returns a value for the output so far (stdout
 * and stderr lines); rejects with that output when `ready` throws, or the program exits or
 * stays silent past the deadline.
 */
export function startChild<T>(
  args: string[],
  ready: (lines: string[]) => T | undefined,
  timeoutMs = SAFETY_NET_MS,
): Promise<Child<T>> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000)
    await exited
    clearTimeout(timer)
  }
  const lines: string[] = []
  return new Promise((resolve, reject) => {
    let settled = false
    const fail = (why: string): void => {
      if (settled) return
      settled = true
      void stop()
      reject(new Error(`${args.join(' ')}: ${why}\n${lines.join('\n')}`))
    }
    const timer = setTimeout(() => fail(`not ready within ${timeoutMs} ms`), timeoutMs)
    for (const stream of [child.stdout, child.stderr]) {
      eachLine(stream, (line) => {
        lines.push(line)
        if (settled) return
        let value: T | undefined
        try {
          value = ready(lines)
        } catch (error) {
          fail(error instanceof Error ? error.message : String(error))
          return
        }
        if (value !== undefined) {
          settled = true
          clearTimeout(timer)
          resolve({ ready: value, lines, pid: child.pid!, stop })
        }
      })
    }
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      fail(`exited with ${signal ?? code}`)
    })
  })
}

/** Calls `onLine` with every complete line `stream` prints. */
export function eachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffer = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    buffer += chunk
    const parts = buffer.split('\n')
    buffer = parts.pop() ?? ''
    for (const part of parts) onLine(part)
  })
}

/** The URL of the first `listening on <url>` line (the pool and services fixtures print it). */
export const listeningUrl = (lines: string[]): string | undefined =>
  lines.map((line) => /listening on (\S+)/.exec(line)?.[1]).find(Boolean)
