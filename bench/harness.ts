import { cpus, totalmem } from 'node:os'

/** One measured quantity of a benchmark. */
export interface Metric {
  name: string
  unit: 'ms' | 'µs' | 'MB' | 'ops/s' | 'count' | 'ratio'
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
  pass?: boolean
}

export interface BenchResult {
  name: string
  description: string
  metrics: Metric[]
  comparisons: Comparison[]
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

export function median(values: number[]): number {
  return quantile(values, 0.5)
}

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
