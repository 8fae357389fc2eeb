import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { batched } from './batch'

describe('batched', () => {
  vi.useFakeTimers()
  afterEach(() => vi.clearAllTimers())
  afterAll(() => vi.useRealTimers())

  it('hands a burst over in one flush, in order, and a later item in the next', () => {
    const flushes: number[][] = []
    const batch = batched<number>((items) => flushes.push(items))
    for (let i = 0; i < 500; i++) batch.push(i)
    expect(flushes).toEqual([])
    vi.runAllTimers()
    expect(flushes).toHaveLength(1)
    expect(flushes[0]).toEqual(Array.from({ length: 500 }, (_, i) => i))
    batch.push(500)
    vi.runAllTimers()
    expect(flushes[1]).toEqual([500])
  })

  it('hands what waits over at once on flush, and nothing more when its timer comes', () => {
    const flushes: number[][] = []
    const batch = batched<number>((items) => flushes.push(items))
    batch.push(1)
    batch.push(2)
    batch.flush()
    expect(flushes).toEqual([[1, 2]])
    vi.runAllTimers()
    batch.flush()
    expect(flushes).toEqual([[1, 2]])
  })

  it('waits longer after its timer came late (the page was busy), at most a second', () => {
    let clock = 0
    const flushes: number[][] = []
    const batch = batched<number>(
      (items) => flushes.push(items),
      50,
      () => clock,
    )
    batch.push(1)
    // The page was busy: the timer due at 50 ms runs at 450 ms.
    clock = 450
    vi.advanceTimersByTime(50)
    expect(flushes).toEqual([[1]])
    batch.push(2)
    vi.advanceTimersByTime(700)
    expect(flushes).toHaveLength(1)
    clock = 1250
    vi.advanceTimersByTime(100)
    expect(flushes).toEqual([[1], [2]])
    // Far behind: still once a second.
    batch.push(3)
    clock = 5000
    vi.advanceTimersByTime(800)
    batch.push(4)
    vi.advanceTimersByTime(999)
    expect(flushes).toHaveLength(3)
    vi.advanceTimersByTime(1)
    expect(flushes).toEqual([[1], [2], [3], [4]])
  })

  it('hands nothing over once cancelled', () => {
    const flush = vi.fn()
    const batch = batched<number>(flush)
    batch.push(1)
    batch.cancel()
    vi.runAllTimers()
    expect(flush).not.toHaveBeenCalled()
  })
})
