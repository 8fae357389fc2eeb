import { describe, expect, it } from 'vitest'
import { HealthTracker } from './health'
import { LatencySeries } from './health-series'

const options = { bucketMs: 1000, buckets: 3, maxPerBucket: 100 }

describe('LatencySeries', () => {
  it('computes p50/p95/p99 per slice over the successful calls', () => {
    const series = new LatencySeries(options)
    for (let ms = 1; ms <= 100; ms++) series.add(10_100, ms)
    series.add(10_200, 9_999, 'timeout')
    const [slice] = series.snapshot(10_500)
    expect(slice).toMatchObject({ at: 10_000, calls: 101, errors: { timeout: 1 } })
    expect(slice!.latency).toEqual({ p50: 50.5, p95: 95.05, p99: 99.01 })
  })

  it('starts a new slice per bucket and leaves out slices with no calls', () => {
    const series = new LatencySeries(options)
    series.add(10_100, 5)
    series.add(12_900, 7)
    expect(series.snapshot(13_000).map((s) => s.at)).toEqual([10_000, 12_000])
  })

  it('keeps only the newest slices', () => {
    const series = new LatencySeries(options)
    for (let at = 0; at < 10_000; at += 1000) series.add(at, 1)
    expect(series.snapshot(9_500).map((s) => s.at)).toEqual([7_000, 8_000, 9_000])
  })

  it('drops slices older than the span when nothing new arrived', () => {
    const series = new LatencySeries(options)
    series.add(1_000, 1)
    expect(series.snapshot(60_000)).toEqual([])
  })

  it('keeps at most maxPerBucket latencies per slice while counting every call', () => {
    const series = new LatencySeries({ ...options, maxPerBucket: 10 })
    for (let ms = 20; ms >= 1; ms--) series.add(5_000, ms)
    const [slice] = series.snapshot(5_500)
    expect(slice!.calls).toBe(20)
    // The first ten kept: 20…11.
    expect(slice!.latency).toEqual({ p50: 15.5, p95: 19.55, p99: 19.91 })
  })

  it('forgets what a reused slot held when the ring wraps', () => {
    const series = new LatencySeries(options)
    for (let i = 0; i < 6; i++) series.add(1_000, 100 + i)
    series.add(1_000, 50, 'timeout')
    series.add(2_000, 1)
    series.add(3_000, 2)
    series.add(4_000, 3)
    expect(series.snapshot(4_500)).toEqual([
      { at: 2_000, calls: 1, errors: {}, latency: { p50: 1, p95: 1, p99: 1 } },
      { at: 3_000, calls: 1, errors: {}, latency: { p50: 2, p95: 2, p99: 2 } },
      { at: 4_000, calls: 1, errors: {}, latency: { p50: 3, p95: 3, p99: 3 } },
    ])
  })

  it('counts a call from a clock that stepped back in the newest slice', () => {
    const series = new LatencySeries(options)
    series.add(5_000, 1)
    series.add(3_000, 3)
    expect(series.snapshot(5_500)).toEqual([
      { at: 5_000, calls: 2, errors: {}, latency: { p50: 2, p95: 2.9, p99: 2.98 } },
    ])
  })

  it('gives a slice where every call failed no latency', () => {
    const series = new LatencySeries(options)
    series.add(1_000, 30, 'unauthorized')
    expect(series.snapshot(1_500)[0]).toEqual({ at: 1_000, calls: 1, errors: { unauthorized: 1 } })
  })
})

describe('HealthTracker series', () => {
  it('reports a series per operation and overall', () => {
    let now = 50_000
    const health = new HealthTracker(
      's',
      { windowMs: 60_000, maxSamples: 100, recent: 5, series: options },
      () => now,
    )
    health.record('search', 10)
    now += 1000
    health.record('discover', 20, { code: 'timeout', message: 'slow' })
    const snapshot = health.snapshot({ state: 'ready', since: 0 })
    expect(snapshot.operations.find((o) => o.operation === 'search')!.series).toEqual([
      { at: 50_000, calls: 1, errors: {}, latency: { p50: 10, p95: 10, p99: 10 } },
    ])
    expect(snapshot.overall.series.map((s) => [s.at, s.calls])).toEqual([
      [50_000, 1],
      [51_000, 1],
    ])
  })
})
