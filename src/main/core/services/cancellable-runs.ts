/**
 * Operations in flight by id, each under its own abort signal: a search, a Doctor run, a
 * workbench call. One id runs once at a time; {@link cancel} aborts one, {@link dispose} all.
 */
export class CancellableRuns {
  private readonly running = new Map<string, AbortController>()

  /** `alreadyRunning` builds the error for an id that is still running. */
  constructor(private readonly alreadyRunning: (id: string) => Error) {}

  /** Runs `body` under a fresh signal registered as `id`, and forgets the id when it ends. */
  async run<T>(id: string, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.running.has(id)) throw this.alreadyRunning(id)
    const controller = new AbortController()
    this.running.set(id, controller)
    try {
      return await body(controller.signal)
    } finally {
      this.running.delete(id)
    }
  }

  /** Whether an operation with this id is running now. */
  has(id: string): boolean {
    return this.running.has(id)
  }

  /** Aborts a running operation; false when none has that id (it finished, or never ran). */
  cancel(id: string): boolean {
    const controller = this.running.get(id)
    controller?.abort()
    return controller !== undefined
  }

  /** Aborts every running operation. */
  dispose(): void {
    for (const controller of this.running.values()) controller.abort()
  }
}
