import { lstatSync, readlinkSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'

/** Waits until a file has stopped growing, so half-written saves are never read. */
export const AWAIT_WRITE_FINISH = { stabilityThreshold: 50, pollInterval: 10 } as const

/** Events that reload; a folder appearing at the file's path is one too (the load reports it). */
const CHANGES: ReadonlySet<string> = new Set(['add', 'change', 'unlink', 'addDir', 'unlinkDir'])

/**
 * One chokidar watcher per file. chokidar 6 follows a watched file through in-place writes,
 * atomic rename-over saves and delete + recreate, and watches from the nearest existing folder
 * while the file (or its folder) does not exist yet. A symlinked file is watched as the link and
 * as every file the link leads to, re-resolved after each event: watching the link alone loses
 * a target that is deleted and written again.
 */
export class FileWatchers {
  private readonly watchers = new Map<string, FSWatcher>()
  /** The files asked for, and for each watched path the file it stands for. */
  private requested: readonly string[] = []
  private readonly owners = new Map<string, string>()
  private closed = false

  constructor(
    private readonly onChange: (path: string) => void,
    private readonly onError: (path: string, error: unknown) => void = () => undefined,
  ) {}

  /** Watches exactly these files; resolves once every new watcher is ready. */
  async set(paths: readonly string[]): Promise<void> {
    if (this.closed) return
    this.requested = [...paths]
    this.owners.clear()
    for (const path of paths) {
      for (const hop of linkChain(path)) if (!this.owners.has(hop)) this.owners.set(hop, path)
    }
    for (const [path, watcher] of this.watchers) {
      if (!this.owners.has(path)) {
        this.watchers.delete(path)
        await watcher.close()
      }
    }
    const ready: Promise<void>[] = []
    for (const path of this.owners.keys()) {
      if (this.watchers.has(path)) continue
      const watcher = watch(path, { ignoreInitial: true, awaitWriteFinish: AWAIT_WRITE_FINISH })
      watcher.on('all', (event) => {
        if (CHANGES.has(event)) this.changed(path)
      })
      // A file deleted and at once replaced by a folder yields no chokidar event, only raw ones.
      watcher.on('raw', () => {
        if (isOtherThanFile(path)) this.changed(path)
      })
      watcher.on('error', (error) => this.onError(path, error))
      ready.push(new Promise((resolve) => watcher.once('ready', () => resolve())))
      this.watchers.set(path, watcher)
    }
    await Promise.all(ready)
  }

  private changed(watched: string): void {
    const owner = this.owners.get(watched)
    if (owner === undefined) return
    // A link may now lead elsewhere (or its target be gone): follow it before reporting.
    const chain = this.requested.flatMap(linkChain)
    if (chain.length !== this.owners.size || chain.some((hop) => !this.owners.has(hop))) {
      this.set(this.requested).catch((error: unknown) => this.onError(owner, error))
    }
    this.onChange(owner)
  }

  async close(): Promise<void> {
    this.closed = true
    const all = [...this.watchers.values()]
    this.watchers.clear()
    await Promise.all(all.map((watcher) => watcher.close()))
  }
}

/** Something other than a regular file is at `path` (a folder, a FIFO, a symlink loop, …). */
function isOtherThanFile(path: string): boolean {
  try {
    const stats = statSync(path, { throwIfNoEntry: false })
    return stats !== undefined && !stats.isFile()
  } catch {
    return true
  }
}

/**
 * `path` and every path its symbolic links lead to, up to the file at the end (left out when it
 * is something other than a file, such as a device: there is nothing to watch in it).
 */
function linkChain(path: string): string[] {
  const chain = [path]
  let current = resolve(path)
  for (let hops = 0; hops < 40; hops++) {
    let isLink: boolean
    try {
      isLink = lstatSync(current).isSymbolicLink()
    } catch {
      return chain // absent (a dangling link's target): watched until it appears
    }
    if (!isLink) {
      if (chain.length > 1 && isOtherThanFile(current)) chain.pop()
      return chain
    }
    current = resolve(dirname(current), readlinkSync(current))
    if (chain.includes(current)) return chain
    chain.push(current)
  }
  return chain
}
