import { watch, type FSWatcher } from 'chokidar'

/** Waits until a file has stopped growing, so half-written saves are never read. */
export const AWAIT_WRITE_FINISH = { stabilityThreshold: 50, pollInterval: 10 } as const

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
        if (event === 'add' || event === 'change' || event === 'unlink') this.onChange(path)
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
