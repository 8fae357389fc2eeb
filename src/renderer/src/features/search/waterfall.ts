/** The scale of a latency waterfall: its end and the tick marks along it. */
export interface WaterfallScale {
  maxMs: number
  ticks: number[]
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above `value` (at least 1). */
export function niceCeil(value: number): number {
  if (!Number.isFinite(value) || value <= 1) return 1
  const power = 10 ** Math.floor(Math.log10(value))
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power
  return 10 * power
}

/**
 * A scale that holds every latency (and the time elapsed so far while servers are still out),
 * rounded up to a readable end, with three to five evenly spaced ticks (labels stay apart even
 * in a narrow column).
 */
export function waterfallScale(latencies: readonly number[], minMs = 100): WaterfallScale {
  const longest = Math.max(minMs, ...latencies.filter(Number.isFinite))
  const maxMs = niceCeil(longest)
  const tickStep = niceCeil(maxMs / 4)
  const ticks: number[] = []
  for (let t = 0; t <= maxMs + 1e-9 && ticks.length < 12; t += tickStep) ticks.push(t)
  return { maxMs, ticks }
}

/** Width of a bar as a percentage of the scale, clamped to 0–100 and at least a sliver. */
export function barPercent(ms: number, scale: WaterfallScale): number {
  if (!Number.isFinite(ms) || ms <= 0) return 0.5
  return Math.min(100, Math.max(0.5, (ms / scale.maxMs) * 100))
}

/** `850 ms`, `1.24 s`, `12.5 s`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}
