import type { ErrorCode } from '#shared/errors'
import type { LatencyBucket, OperationHealth, RateLimitInfo } from '#shared/model/server'

/** Columns for a latency chart: epoch seconds and one value (or a gap) per slice. */
export interface LatencyColumns {
  x: number[]
  p50: (number | null)[]
  p95: (number | null)[]
  p99: (number | null)[]
}

/** The span every latency chart of the panel draws: slice starts (epoch ms), one width. */
export interface TimeAxis {
  first: number
  last: number
  bucketMs: number
}

/**
 * One time axis for several charts: from the earliest slice of any series to the latest,
 * capped at `maxPoints` slices (the newest), so charts side by side line up in time.
 */
export function timeAxis(
  series: readonly (readonly LatencyBucket[])[],
  bucketMs: number,
  maxPoints = 240,
): TimeAxis | null {
  const starts = series.flatMap((s) => (s.length > 0 ? [s[0]!.at, s[s.length - 1]!.at] : []))
  if (starts.length === 0 || bucketMs <= 0) return null
  const last = Math.max(...starts)
  const first = Math.max(Math.min(...starts), last - (maxPoints - 1) * bucketMs)
  return { first, last, bucketMs }
}

/**
 * Latency slices as chart columns, one per slice of the axis: slices without successful calls
 * become gaps, so a line never bridges a quiet or failing stretch.
 */
export function latencyColumns(
  series: readonly LatencyBucket[],
  axis: TimeAxis | null,
): LatencyColumns {
  const columns: LatencyColumns = { x: [], p50: [], p95: [], p99: [] }
  if (!axis) return columns
  const byStart = new Map(series.map((b) => [b.at, b]))
  for (let at = axis.first; at <= axis.last; at += axis.bucketMs) {
    const latency = byStart.get(at)?.latency
    columns.x.push(at / 1000)
    columns.p50.push(latency?.p50 ?? null)
    columns.p95.push(latency?.p95 ?? null)
    columns.p99.push(latency?.p99 ?? null)
  }
  return columns
}

/** `5 min`, `90 s`, `2 h`: the span a rate or quantile covers, for column labels. */
export function describeWindow(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`
  if (ms % 60_000 === 0) return `${ms / 60_000} min`
  return `${Math.round(ms / 1000)} s`
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

/**
 * The overview's "Rate limit left" cell: the share left, which keeps its width whatever the
 * limit (`9991 / 10000` would not fit a narrow window), and the counts as its tooltip (the
 * server's own section shows them in full).
 */
export function headroomCell(info: RateLimitInfo | undefined): { text: string; title?: string } {
  const room = headroom(info)
  if (room === null) return { text: '–' }
  return {
    text: formatPercent(room.ratio),
    title: `${room.remaining.toLocaleString('en')} of ${room.limit.toLocaleString('en')} left`,
  }
}

/** Uptime as a percentage, or "—" while the server's state is not known yet. */
export function formatUptime(ratio: number | undefined): string {
  return ratio === undefined ? '—' : formatPercent(ratio)
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

/** A port as typed: a whole number 0–65535, else undefined. */
export function parsePort(text: string): number | undefined {
  const trimmed = text.trim()
  if (!/^\d{1,5}$/.test(trimmed)) return undefined
  const port = Number(trimmed)
  return port <= 65_535 ? port : undefined
}
