import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { statSync } from 'node:fs'
import type { Readable } from 'node:stream'
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { LineReader, readLinesOf } from './line-reader'

const isWindows = process.platform === 'win32'
/** Longest line kept from a child's output; the rest of a longer line is dropped. */
const MAX_LINE = 64 * 1024

/** Children still running, killed synchronously if the console exits without disposing. */
const live = new Set<ChildProcess>()
/** Children that lead their own process group (signals go to the whole group). */
const groupLeaders = new WeakSet<ChildProcess>()
let exitHookInstalled = false

function killOnExit(): void {
  for (const child of live) signal(child, 'SIGKILL')
}

export interface SpawnOptions {
  command: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  /** `pipe` when the console talks to the child over stdin (stdio servers). */
  stdin: 'pipe' | 'ignore'
  /**
   * Start it as the leader of its own process group, so signals reach everything it started
   * (launched HTTP servers behind `npm run` or `sh -c`). Not for stdio servers: a new session
   * puts the child in its own scheduling group, which costs every call wake-up latency, and
   * their descendants are found and stopped at close anyway.
   */
  ownGroup: boolean
}

/**
 * Inside Electron, `process.execPath` is the Electron binary: a server started with it (the
 * embedded demo registry's `${app:node}`) must run as plain Node, not as another app window.
 */
export function runsAsNode(command: string): Record<string, string> {
  return process.versions.electron && command === process.execPath
    ? { ELECTRON_RUN_AS_NODE: '1' }
    : {}
}

/**
 * Starts a server process with a minimal inherited environment plus `env`. Resolves once the
 * process runs; rejects when it cannot start (e.g. the command does not exist).
 */
export function spawnServer(options: SpawnOptions): Promise<ChildProcess> {
  if (!exitHookInstalled) {
    process.once('exit', killOnExit)
    exitHookInstalled = true
  }
  const ownGroup = options.ownGroup && !isWindows
  const child = spawn(options.command, options.args, {
    env: { ...getDefaultEnvironment(), ...runsAsNode(options.command), ...options.env },
    cwd: options.cwd,
    stdio: [options.stdin, 'pipe', 'pipe'],
    detached: ownGroup,
    windowsHide: true,
  })
  if (ownGroup) groupLeaders.add(child)
  return new Promise((resolve, reject) => {
    const fail = (error: Error): void => reject(withMissingCwd(error, options.cwd))
    child.once('error', fail)
    child.once('spawn', () => {
      child.off('error', fail)
      live.add(child)
      child.once('exit', () => live.delete(child))
      resolve(child)
    })
  })
}

/**
 * Node reports a missing working directory as ENOENT on the command. Marks such an error with
 * the folder (`missingCwd`) so it is not reported as "command not found".
 */
function withMissingCwd(error: Error, cwd: string | undefined): Error {
  const code = (error as { code?: unknown }).code
  if ((code === 'ENOENT' || code === 'ENOTDIR') && cwd !== undefined && !isFolder(cwd)) {
    Object.assign(error, { missingCwd: cwd })
  }
  return error
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** Whether the child has not exited yet. */
export const isRunning = (child: ChildProcess): boolean =>
  child.exitCode === null && child.signalCode === null

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    if (groupLeaders.has(child)) process.kill(-child.pid, name)
    else child.kill(name)
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

/** Process ids of everything `pid` started, children first (POSIX `ps`; none elsewhere). */
function descendantsOf(pid: number | undefined): number[] {
  if (pid === undefined || isWindows) return []
  const listing = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', timeout: 2000 })
  if (listing.status !== 0 || !listing.stdout) return []
  const children = new Map<number, number[]>()
  for (const line of listing.stdout.split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number)
    if (!child || !parent) continue
    children.set(parent, [...(children.get(parent) ?? []), child])
  }
  const found: number[] = []
  for (let queue = [pid]; queue.length > 0;) {
    const next = children.get(queue.shift()!) ?? []
    found.push(...next)
    queue.push(...next)
  }
  return found
}

/**
 * Stops a server and everything it started: closes its stdin (the polite stdio way), then
 * SIGTERM, then SIGKILL, each after a grace period; leftovers of its process group or of the
 * process tree it had are killed last, so nothing is orphaned.
 */
export async function terminate(child: ChildProcess, graceMs = 1000): Promise<void> {
  const tree = groupLeaders.has(child) ? [] : descendantsOf(child.pid)
  child.stdin?.end()
  const polite = child.stdin ? await exited(child, Math.min(graceMs, 300)) : false
  if (!polite) {
    signal(child, 'SIGTERM')
    if (!(await exited(child, graceMs))) {
      signal(child, 'SIGKILL')
      await exited(child, graceMs)
    }
  }
  if (groupLeaders.has(child)) signal(child, 'SIGKILL')
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}

/**
 * Calls `onLine` for every line of a stream (a last unterminated line included); a line longer
 * than `maxLine` bytes is cut there and the rest of it dropped.
 */
export function readLines(
  stream: Readable,
  onLine: (line: string) => void,
  maxLine = MAX_LINE,
): void {
  readLinesOf(stream, new LineReader({ maxBytes: maxLine, onLine }))
}
