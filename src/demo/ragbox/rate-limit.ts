/** The state of one key's window after a request. */
export interface RateState {
  allowed: boolean
  limit: number
  remaining: number
  /** Epoch seconds when the window resets. */
  reset: number
}

/** Fixed-window request limiter per key (RAGbox counts requests per minute per API key). */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request for the key and says whether it is within the limit. */
  take(key: string): RateState {
    const now = this.now()
    let window = this.windows.get(key)
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 }
      this.windows.set(key, window)
    }
    const allowed = window.count < this.limit
    if (allowed) window.count += 1
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      reset: Math.ceil((window.start + this.windowMs) / 1000),
    }
  }
}
