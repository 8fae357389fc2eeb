import type { ConsoleError } from '#shared/errors'

/**
 * Caps how many calls run at once against one server (so one slow provider cannot exhaust
 * sockets or child pipes); later calls wait in order. A waiting call leaves the queue when its
 * signal aborts.
 */
export class Limiter {
  private running = 0
  private readonly waiting: { grant: () => void; fail: (error: unknown) => void }[] = []

  constructor(readonly max: number) {}

  get active(): number {
    return this.running
  }

  get queued(): number {
    return this.waiting.length
  }

  /** A release function if a slot is free right now (no waiting, no promise). */
  tryAcquire(): (() => void) | undefined {
    if (this.running >= this.max) return undefined
    this.running++
    return this.releaser()
  }

  /** Resolves with a release function once a slot is free. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (this.running < this.max) {
      this.running++
      return Promise.resolve(this.releaser())
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort)
          this.running++
          resolve(this.releaser())
        },
        fail: (error: unknown) => {
          signal?.removeEventListener('abort', onAbort)
          reject(error)
        },
      }
      const onAbort = (): void => {
        const index = this.waiting.indexOf(entry)
        if (index !== -1) this.waiting.splice(index, 1)
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiting.push(entry)
    })
  }

  /** Fails every waiting call (the server is going away). */
  rejectAll(error: ConsoleError): void {
    for (const entry of this.waiting.splice(0)) entry.fail(error)
  }

  private releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      this.running--
      this.waiting.shift()?.grant()
    }
  }
}
