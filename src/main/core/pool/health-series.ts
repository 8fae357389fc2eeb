import type { ErrorCode } from '#shared/errors'
import type { LatencyBucket } from '#shared/model/server'

export interface SeriesOptions {
  /** Width of one slice. */
  bucketMs: number
  /** Slices kept; older ones are dropped as new ones start. */
  buckets: number
  /** Successful latencies kept per slice for its quantiles (the first ones; the count is exact). */
  maxPerBucket: number
}

export const DEFAULT_SERIES: SeriesOptions = { bucketMs: 15_000, buckets: 120, maxPerBucket: 400 }

/** Successful latencies of a slice kept in the preallocated ring; more go to a per-slice array. */
const INLINE_OK = 4

/**
 * Calls of one operation in fixed-width time slices (default 15 s × 120 = the last 30 min), so
 * the Health panel can draw p50/p95/p99 and errors by code over a longer span than the
 * sliding window the status decisions use.
 *
 * The slices are a ring of typed arrays allocated up front: a steady trickle of calls (health
 * probes) costs no new memory as the span fills, so a filling series does not look like a leak.
 * Only slices with errors or more than a few successful calls allocate, and a reused slot drops
 * what it held. Memory stays bounded by `buckets × maxPerBucket`.
 */
export class LatencySeries {
  /** Start of the slice in each slot; NaN for a slot never used. */
  private readonly at: Float64Array
  private readonly calls: Uint32Array
  private readonly okCount: Uint32Array
  private readonly okInline: Float64Array
  private readonly okMore: (number[] | undefined)[]
  private readonly errors: (Partial<Record<ErrorCode, number>> | undefined)[]
  /** Slot of the newest slice; -1 before the first call. */
  private newest = -1

  constructor(private readonly options: SeriesOptions = DEFAULT_SERIES) {
    const n = options.buckets
    this.at = new Float64Array(n).fill(Number.NaN)
    this.calls = new Uint32Array(n)
    this.okCount = new Uint32Array(n)
    this.okInline = new Float64Array(n * INLINE_OK)
    this.okMore = new Array<number[] | undefined>(n).fill(undefined)
    this.errors = new Array<Partial<Record<ErrorCode, number>> | undefined>(n).fill(undefined)
  }

  /** One finished call at `at`; `code` absent for success. */
  add(at: number, ms: number, code?: ErrorCode): void {
    const start = Math.floor(at / this.options.bucketMs) * this.options.bucketMs
    // A clock that stepped back counts in the newest slice rather than being lost.
    if (this.newest < 0 || this.at[this.newest]! < start) this.open(start)
    const slot = this.newest
    this.calls[slot]!++
    if (code) {
      const errors = (this.errors[slot] ??= {})
      errors[code] = (errors[code] ?? 0) + 1
    } else if (this.okCount[slot]! < this.options.maxPerBucket) {
      const i = this.okCount[slot]!++
      if (i < INLINE_OK) this.okInline[slot * INLINE_OK + i] = ms
      else (this.okMore[slot] ??= []).push(ms)
    }
  }

  /** Slices that end after `now - buckets × bucketMs`, oldest first. */
  snapshot(now: number): LatencyBucket[] {
    const since = now - this.options.buckets * this.options.bucketMs
    const buckets: LatencyBucket[] = []
    if (this.newest < 0) return buckets
    const n = this.options.buckets
    for (let k = 1; k <= n; k++) {
      const slot = (this.newest + k) % n
      const at = this.at[slot]!
      if (Number.isNaN(at) || at + this.options.bucketMs <= since) continue
      const bucket: LatencyBucket = {
        at,
        calls: this.calls[slot]!,
        errors: { ...this.errors[slot] },
      }
      const sorted = this.ok(slot).sort((a, b) => a - b)
      if (sorted.length > 0) {
        bucket.latency = {
          p50: quantileSorted(sorted, 0.5),
          p95: quantileSorted(sorted, 0.95),
          p99: quantileSorted(sorted, 0.99),
        }
      }
      buckets.push(bucket)
    }
    return buckets
  }

  /** Makes the slot after the newest hold a new slice starting at `start`. */
  private open(start: number): void {
    const slot = (this.newest + 1) % this.options.buckets
    this.newest = slot
    this.at[slot] = start
    this.calls[slot] = 0
    this.okCount[slot] = 0
    this.okMore[slot] = undefined
    this.errors[slot] = undefined
  }

  /** A copy of the successful latencies kept for a slot. */
  private ok(slot: number): number[] {
    const count = this.okCount[slot]!
    const inline = Array.from(
      this.okInline.subarray(slot * INLINE_OK, slot * INLINE_OK + Math.min(count, INLINE_OK)),
    )
    return count > INLINE_OK ? inline.concat(this.okMore[slot]!) : inline
  }
}

/** Linear interpolation between the closest ranks, rounded to the microsecond. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q
  const low = Math.floor(position)
  const high = Math.ceil(position)
  const value = sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low)
  return Math.round(value * 1000) / 1000
}
