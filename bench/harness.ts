import { cpus, totalmem } from 'node:os'

/** One measured quantity of a benchmark. */
export interface Metric {
  name: string
  unit: 'ms' | 'µs' | 'MB' | 'MB/h' | 'ops/s' | 'count' | 'ratio' | '%' | 'bytes'
  median: number
  p95?: number
  samples?: number
}

/** A comparison against a baseline measured in the same run. */
export interface Comparison {
  name: string
  /** What is compared with what, e.g. "console call vs bare SDK Client call (stdio)". */
  description: string
  ratio: number
  /** e.g. "≤ 1.10" */
  target?: string
  pass?: boolean | undefined
}

/**
 * A correctness condition a benchmark observed (errors, reconnects, memory growth). Unlike a
 * ratio on a shared machine, a failed check is a defect: the run exits non-zero.
 */
export interface Check {
  name: string
  /** What was counted and what it must be, e.g. "searches that returned an error". */
  description: string
  value: number
  unit: Metric['unit']
  /** e.g. "= 0", "≤ 2 MB" */
  target: string
  /** Absent when the run is too short to judge (quick runs of statistical checks). */
  pass?: boolean | undefined
}

/** A count that must be zero on every run (errors, needless reconnects, …). */
export function zeroCheck(name: string, description: string, value: number): Check {
  return { name, description, value, unit: 'count', target: '= 0', pass: value === 0 }
}

export interface BenchResult {
  name: string
  description: string
  metrics: Metric[]
  comparisons: Comparison[]
  checks?: Check[]
  notes?: string[]
}

export interface BenchOptions {
  /** CI's smoke run: few iterations, only proves the benchmark completes. */
  quick: boolean
}

export interface Benchmark {
  name: string
  run(options: BenchOptions): Promise<BenchResult>
}

/** The middle value (mean of the two middle ones for an even count); NaN when empty. */
export function median(values: number[]): number {
  return quantile(values, 0.5)
}

/** The q-quantile (0–1) by linear interpolation between closest ranks; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const position = (sorted.length - 1) * q
  const low = Math.floor(position)
  const high = Math.ceil(position)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low)
}

/** A metric from raw samples: median and p95. */
export function summarize(name: string, unit: Metric['unit'], samples: number[]): Metric {
  return {
    name,
    unit,
    median: median(samples),
    p95: quantile(samples, 0.95),
    samples: samples.length,
  }
}

/** What the numbers were measured on. */
export function machine(): Record<string, string | number> {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
  }
}

/** High-resolution milliseconds. */
export const now = (): number => Number(process.hrtime.bigint()) / 1e6

/**
 * A benchmark's verdict: `missed` if any judged comparison or check failed, `met` if at least
 * one was judged and all passed, `unjudged` when nothing was (quick runs, pure measurements).
 */
export function verdict(result: BenchResult): 'met' | 'missed' | 'unjudged' {
  const judged = [...result.comparisons, ...(result.checks ?? [])]
    .map((entry) => entry.pass)
    .filter((pass): pass is boolean => pass !== undefined)
  if (judged.length === 0) return 'unjudged'
  return judged.every(Boolean) ? 'met' : 'missed'
}

/** Resolves after `ms` (pacing between polls, never a stand-in for waiting on a condition). */
export const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `condition` until true, or throws `what` (described when it times out) after `timeoutMs`. */
export async function until(
  condition: () => boolean,
  timeoutMs: number,
  what: string | (() => string),
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) {
      const described = typeof what === 'string' ? what : what()
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${described}`)
    }
    await pause(20)
  }
}
