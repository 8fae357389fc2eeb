import { afterEach, describe, expect, it, vi } from 'vitest'
import { batched } from './batch'

describe('batched', () => {
  vi.useFakeTimers()
  afterEach(() => vi.clearAllTimers())

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

  it('hands nothing over once cancelled', () => {
    const flush = vi.fn()
    const batch = batched<number>(flush)
    batch.push(1)
    batch.cancel()
    vi.runAllTimers()
    expect(flush).not.toHaveBeenCalled()
  })
})
