import { randomBytes } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'

export interface FileLockOptions {
  /** A lock older than this is taken as left behind by a hung holder. */
  staleMs: number
  /** How often a waiting process looks again (default 100 ms; 2 ms for the synchronous lock). */
  pollMs?: number
  /** Gives up waiting. */
  signal?: AbortSignal
}

interface Holder {
  pid: number
  at: number
  token: string
}

/**
 * Runs `work` while holding a lock that every process on this machine using the same path
 * respects: a file created exclusively, holding its owner's pid and a token. A lock whose
 * process is gone (killed, crashed) or that is older than `staleMs` is taken over; others wait
 * for it. Two consoles on one data folder (the app, `rag-console monitor`, a terminal's CLI)
 * use it so that only one of them does a thing at a time.
 */
export async function withFileLock<T>(
  path: string,
  work: () => Promise<T>,
  options: FileLockOptions,
): Promise<T> {
  const token = await acquire(path, options)
  try {
    return await work()
  } finally {
    release(path, token)
  }
}

/** A lock file still empty after this long was left by a process that died creating it. */
const UNWRITTEN_MS = 5_000

/**
 * {@link withFileLock} for short synchronous work (a settings save): waiting blocks the thread
 * (`Atomics.wait`, no spinning), so it is for locks held a few milliseconds at a time.
 */
export function withFileLockSync<T>(
  path: string,
  work: () => T,
  options: Omit<FileLockOptions, 'signal'>,
): T {
  mkdirSync(dirname(path), { recursive: true })
  const token = randomBytes(8).toString('hex')
  const sleeper = new Int32Array(new SharedArrayBuffer(4))
  while (!tryAcquire(path, token, options.staleMs)) {
    Atomics.wait(sleeper, 0, 0, options.pollMs ?? 2)
  }
  try {
    return work()
  } finally {
    release(path, token)
  }
}

async function acquire(path: string, options: FileLockOptions): Promise<string> {
  mkdirSync(dirname(path), { recursive: true })
  const token = randomBytes(8).toString('hex')
  for (;;) {
    options.signal?.throwIfAborted()
    if (tryAcquire(path, token, options.staleMs)) return token
    await pause(options.pollMs ?? 100, options.signal)
  }
}

/**
 * Creates the lock, or takes over one left behind (its process gone, older than `staleMs`, or
 * never written); false while another process holds it.
 */
function tryAcquire(path: string, token: string, staleMs: number): boolean {
  for (;;) {
    if (tryCreate(path, { pid: process.pid, at: Date.now(), token })) return true
    const holder = readHolder(path)
    if (holder && (!alive(holder.pid) || Date.now() - holder.at > staleMs)) {
      // Taken over only if it is still that holder's lock.
      if (readHolder(path)?.token === holder.token) rmSync(path, { force: true })
      continue
    }
    // Unreadable: being written this moment, or its writer died in between.
    if (!holder && ageMs(path) > UNWRITTEN_MS) {
      rmSync(path, { force: true })
      continue
    }
    return false
  }
}

function tryCreate(path: string, holder: Holder): boolean {
  let fd: number
  try {
    fd = openSync(path, 'wx')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    writeSync(fd, JSON.stringify(holder))
  } finally {
    closeSync(fd)
  }
  return true
}

function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>
    return typeof holder.pid === 'number' &&
      typeof holder.at === 'number' &&
      typeof holder.token === 'string'
      ? (holder as Holder)
      : undefined
  } catch {
    return undefined
  }
}

/** Removes the lock if it is still ours (a holder taken for stale may have lost it). */
function release(path: string, token: string): void {
  if (readHolder(path)?.token === token) rmSync(path, { force: true })
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs
  } catch {
    return 0
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms)
    function done(): void {
      signal?.removeEventListener('abort', abort)
      resolve()
    }
    function abort(): void {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', abort, { once: true })
  })
}
