import type { ErrorCode } from '../../../shared/errors'
import type { LatencyBucket } from '../../../shared/model/server'

export interface SeriesOptions {
  /** Width of one slice. */
  bucketMs: number
  /** Slices kept; older ones are dropped as new ones start. */
  buckets: number
  /** Successful latencies kept per slice for its quantiles (the first ones; the count is exact). */
  maxPerBucket: number
}

export const DEFAULT_SERIES: SeriesOptions = { bucketMs: 15_000, buckets: 120, maxPerBucket: 400 }

interface Slice {
  at: number
  calls: number
  errors: Partial<Record<ErrorCode, number>>
  ok: number[]
}

/**
 * Calls of one operation in fixed-width time slices (default 15 s × 120 = the last 30 min), so
 * the Health panel can draw p50/p95/p99 and errors by code over a longer span than the
 * sliding window the status decisions use. Memory is bounded by `buckets × maxPerBucket`.
 */
export class LatencySeries {
  private readonly slices: Slice[] = []

  constructor(private readonly options: SeriesOptions = DEFAULT_SERIES) {}

  /** One finished call at `at`; `code` absent for success. */
  add(at: number, ms: number, code?: ErrorCode): void {
    const start = Math.floor(at / this.options.bucketMs) * this.options.bucketMs
    let slice = this.slices[this.slices.length - 1]
    // A clock that stepped back counts in the newest slice rather than being lost.
    if (!slice || slice.at < start) {
      slice = { at: start, calls: 0, errors: {}, ok: [] }
      this.slices.push(slice)
      while (this.slices.length > this.options.buckets) this.slices.shift()
    }
    slice.calls++
    if (code) slice.errors[code] = (slice.errors[code] ?? 0) + 1
    else if (slice.ok.length < this.options.maxPerBucket) slice.ok.push(ms)
  }

  /** Slices that end after `now - buckets × bucketMs`, oldest first. */
  snapshot(now: number): LatencyBucket[] {
    const since = now - this.options.buckets * this.options.bucketMs
    return this.slices
      .filter((slice) => slice.at + this.options.bucketMs > since)
      .map((slice) => {
        const bucket: LatencyBucket = {
          at: slice.at,
          calls: slice.calls,
          errors: { ...slice.errors },
        }
        if (slice.ok.length > 0) {
          const sorted = [...slice.ok].sort((a, b) => a - b)
          bucket.latency = {
            p50: quantileSorted(sorted, 0.5),
            p95: quantileSorted(sorted, 0.95),
            p99: quantileSorted(sorted, 0.99),
          }
        }
        return bucket
      })
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
