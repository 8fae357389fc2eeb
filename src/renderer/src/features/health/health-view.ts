import type { ErrorCode } from '../../../../shared/errors'
import type { LatencyBucket, OperationHealth, RateLimitInfo } from '../../../../shared/model/server'

/** Columns for a latency chart: epoch seconds and one value (or a gap) per slice. */
export interface LatencyColumns {
  x: number[]
  p50: (number | null)[]
  p95: (number | null)[]
  p99: (number | null)[]
}

/**
 * Latency slices as chart columns, one per slice width from the first slice to the last:
 * slices without successful calls become gaps, so a line never bridges a quiet or failing
 * stretch. Capped at `maxPoints` slices (the newest).
 */
export function latencyColumns(
  series: readonly LatencyBucket[],
  bucketMs: number,
  maxPoints = 240,
): LatencyColumns {
  const columns: LatencyColumns = { x: [], p50: [], p95: [], p99: [] }
  if (series.length === 0 || bucketMs <= 0) return columns
  const byStart = new Map(series.map((b) => [b.at, b]))
  const last = series[series.length - 1]!.at
  const first = Math.max(series[0]!.at, last - (maxPoints - 1) * bucketMs)
  for (let at = first; at <= last; at += bucketMs) {
    const latency = byStart.get(at)?.latency
    columns.x.push(at / 1000)
    columns.p50.push(latency?.p50 ?? null)
    columns.p95.push(latency?.p95 ?? null)
    columns.p99.push(latency?.p99 ?? null)
  }
  return columns
}

/** One error code of an operation: how many calls failed with it and their share of all. */
export interface ErrorShare {
  code: ErrorCode
  count: number
  /** Of the operation's calls, 0..1. */
  share: number
  /**
   * The server answered but refused (`unauthorized`): about the acting user's rights or the
   * console's credentials, not the server's health, so it never makes the server degraded.
   */
  refusal: boolean
}

/** An operation's errors by code, most frequent first; cancellations are not errors. */
export function errorShares(operation: Pick<OperationHealth, 'calls' | 'errors'>): ErrorShare[] {
  return (Object.entries(operation.errors) as [ErrorCode, number][])
    .filter(([code, count]) => code !== 'cancelled' && count > 0)
    .map(([code, count]) => ({
      code,
      count,
      share: operation.calls > 0 ? count / operation.calls : 0,
      refusal: code === 'unauthorized',
    }))
    .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
}

/** How much of the rate limit is left, or null when the server sent no limit. */
export interface Headroom {
  remaining: number
  limit: number
  /** remaining / limit, 0..1. */
  ratio: number
}

export function headroom(info: RateLimitInfo | undefined): Headroom | null {
  if (!info || info.remaining === undefined || !info.limit) return null
  return {
    remaining: info.remaining,
    limit: info.limit,
    ratio: Math.max(0, Math.min(1, info.remaining / info.limit)),
  }
}

/** `99.2 %`, `100 %`, `0 %`: one decimal only where it says something. */
export function formatPercent(ratio: number): string {
  const percent = ratio * 100
  if (percent === 0 || percent === 100) return `${percent} %`
  if (percent < 0.1) return '< 0.1 %'
  if (percent > 99.9) return '> 99.9 %'
  return `${Number(percent.toFixed(1))} %`
}

/** Operations that were called, busiest first; `connect` last (one call per connection). */
export function sortOperations(operations: readonly OperationHealth[]): OperationHealth[] {
  return operations
    .filter((o) => o.calls > 0)
    .sort(
      (a, b) =>
        Number(a.operation === 'connect') - Number(b.operation === 'connect') ||
        b.calls - a.calls ||
        a.operation.localeCompare(b.operation),
    )
}

/** Whether an operation gets a latency chart: connects are too few to draw (the table has them). */
export const isCharted = (operation: OperationHealth): boolean => operation.operation !== 'connect'
