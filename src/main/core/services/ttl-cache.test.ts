import { describe, expect, it } from 'vitest'
import { TtlCache } from './ttl-cache'

describe('TtlCache', () => {
  it('keeps an entry until its time is up', () => {
    let now = 1_000
    const cache = new TtlCache<string>(5 * 60_000, 10, () => now)
    cache.set('a', 'first')
    now += 5 * 60_000 - 1
    expect(cache.get('a')).toEqual({ value: 'first', at: 1_000 })
    now += 1
    expect(cache.get('a')).toBeUndefined()
  })

  it('drops the oldest entries beyond its size', () => {
    const cache = new TtlCache<number>(60_000, 2)
    cache.set('a', 1)
    cache.set('b', 2)
    cache.set('a', 3)
    cache.set('c', 4)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')?.value).toBe(3)
    expect(cache.get('c')?.value).toBe(4)
  })
})
