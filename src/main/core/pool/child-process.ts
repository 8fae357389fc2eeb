import { spawn, type ChildProcess } from 'node:child_process'
import type { Readable } from 'node:stream'
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'

const isWindows = process.platform === 'win32'
/** Longest line kept from a child's output; the rest of a longer line is dropped. */
const MAX_LINE = 64 * 1024

/** Children still running, killed synchronously if the console exits without disposing. */
const live = new Set<ChildProcess>()
let exitHookInstalled = false

function killOnExit(): void {
  for (const child of live) signalGroup(child, 'SIGKILL')
}

export interface SpawnOptions {
  command: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  /** `pipe` when the console talks to the child over stdin (stdio servers). */
  stdin: 'pipe' | 'ignore'
}

/**
 * Starts a server process in its own process group (so wrappers like `npx` or `sh -c` take
 * their children down with them) with a minimal inherited environment plus `env`. Resolves once
 * the process runs; rejects when it cannot start (e.g. the command does not exist).
 */
export function spawnServer(options: SpawnOptions): Promise<ChildProcess> {
  if (!exitHookInstalled) {
    process.once('exit', killOnExit)
    exitHookInstalled = true
  }
  const child = spawn(options.command, options.args, {
    env: { ...getDefaultEnvironment(), ...options.env },
    cwd: options.cwd,
    stdio: [options.stdin, 'pipe', 'pipe'],
    detached: !isWindows,
    windowsHide: true,
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('spawn', () => {
      child.off('error', reject)
      live.add(child)
      child.once('exit', () => live.delete(child))
      resolve(child)
    })
  })
}

/** Whether the child has not exited yet. */
export const isRunning = (child: ChildProcess): boolean =>
  child.exitCode === null && child.signalCode === null

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    if (isWindows) child.kill(signal)
    else process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (!isRunning(child)) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit)
      resolve(false)
    }, ms)
    timer.unref()
    const onExit = (): void => {
      clearTimeout(timer)
      resolve(true)
    }
    child.once('exit', onExit)
  })
}

/**
 * Stops a server: closes its stdin (the polite stdio way), then SIGTERM, then SIGKILL, each
 * after a grace period; the whole process group receives the signals, so nothing is orphaned.
 */
export async function terminate(child: ChildProcess, graceMs = 1000): Promise<void> {
  child.stdin?.end()
  if (child.stdin && (await exited(child, Math.min(graceMs, 300)))) {
    signalGroup(child, 'SIGKILL') // leftovers of the group, if any
    return
  }
  signalGroup(child, 'SIGTERM')
  if (!(await exited(child, graceMs))) {
    signalGroup(child, 'SIGKILL')
    await exited(child, graceMs)
  }
  signalGroup(child, 'SIGKILL')
}

/**
 * Calls `onLine` for every line of a stream (a last unterminated line included); a line longer
 * than `maxLine` characters is cut there.
 */
export function readLines(
  stream: Readable,
  onLine: (line: string) => void,
  maxLine = MAX_LINE,
): void {
  let pending = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    pending += chunk
    let newline = pending.indexOf('\n')
    while (newline !== -1) {
      onLine(pending.slice(0, newline).replace(/\r$/, ''))
      pending = pending.slice(newline + 1)
      newline = pending.indexOf('\n')
    }
    if (pending.length > maxLine) {
      onLine(pending.slice(0, maxLine))
      pending = ''
    }
  })
  stream.on('end', () => {
    if (pending !== '') onLine(pending)
    pending = ''
  })
}
