import { Worker } from 'node:worker_threads'

/** Longest part of an output line the readyPattern is tested against. */
export const READY_LINE_MAX = 4096

/** Runs in the worker: tests each line it is sent and answers true or false. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const pattern = new RegExp(workerData)
parentPort.on('message', (line) => parentPort.postMessage(pattern.test(line)))
`

/**
 * Tests a launched server's output lines against its `readyPattern` on a worker thread.
 *
 * A regular expression can backtrack for hours on a short line (`(a+)+$`), and a running match
 * cannot be interrupted on the thread that runs it: on the main thread it would freeze the
 * console, timers included, far past `readyTimeoutMs`. Spotting such patterns up front is
 * guesswork (there are many shapes), so instead the match runs where it can be killed: the
 * launch's own deadline still fires and {@link close} terminates the worker mid-match. Lines
 * are cut to {@link READY_LINE_MAX} characters so one huge line cannot make a fair pattern slow.
 */
export class ReadyMatcher {
  private readonly worker: Worker
  private pending = 0

  /** `source` must already compile (checked by the caller, for a config error). */
  constructor(source: string, onMatch: () => void) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: source })
    this.worker.unref()
    this.worker.on('message', (matched: boolean) => {
      this.pending -= 1
      if (matched) onMatch()
    })
    // A worker that cannot run leaves the launch to its deadline, as a pattern that never matches.
    this.worker.on('error', () => {})
  }

  /** Whether a line is still being matched (the pattern may be backtracking). */
  get busy(): boolean {
    return this.pending > 0
  }

  test(line: string): void {
    this.pending += 1
    this.worker.postMessage(line.slice(0, READY_LINE_MAX))
  }

  /** Stops the worker, interrupting a match in progress. */
  async close(): Promise<void> {
    await this.worker.terminate()
  }
}
