import { statSync } from 'node:fs'
import { watch, type FSWatcher } from 'chokidar'

/** Waits until a file has stopped growing, so half-written saves are never read. */
export const AWAIT_WRITE_FINISH = { stabilityThreshold: 50, pollInterval: 10 } as const

/** Events that reload; a folder appearing at the file's path is one too (the load reports it). */
const CHANGES: ReadonlySet<string> = new Set(['add', 'change', 'unlink', 'addDir', 'unlinkDir'])

/**
 * One chokidar watcher per file. chokidar 6 follows a watched file through in-place writes,
 * atomic rename-over saves and delete + recreate, and watches from the nearest existing folder
 * while the file (or its folder) does not exist yet.
 */
export class FileWatchers {
  private readonly watchers = new Map<string, FSWatcher>()
  private closed = false

  constructor(
    private readonly onChange: (path: string) => void,
    private readonly onError: (path: string, error: unknown) => void = () => undefined,
  ) {}

  /** Watches exactly these files; resolves once every new watcher is ready. */
  async set(paths: readonly string[]): Promise<void> {
    if (this.closed) return
    for (const [path, watcher] of this.watchers) {
      if (!paths.includes(path)) {
        this.watchers.delete(path)
        await watcher.close()
      }
    }
    const ready: Promise<void>[] = []
    for (const path of paths) {
      if (this.watchers.has(path)) continue
      const watcher = watch(path, { ignoreInitial: true, awaitWriteFinish: AWAIT_WRITE_FINISH })
      watcher.on('all', (event) => {
        if (CHANGES.has(event)) this.onChange(path)
      })
      // A file deleted and at once replaced by a folder yields no chokidar event, only raw ones.
      watcher.on('raw', () => {
        if (isOtherThanFile(path)) this.onChange(path)
      })
      watcher.on('error', (error) => this.onError(path, error))
      ready.push(new Promise((resolve) => watcher.once('ready', () => resolve())))
      this.watchers.set(path, watcher)
    }
    await Promise.all(ready)
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
