import { describe, expect, it } from 'vitest'
import { RateLimiter } from './rate-limit'

describe('RateLimiter', () => {
  it('allows the limit per window and refuses the next request', () => {
    let now = 1_000_000
    const limiter = new RateLimiter(2, 60_000, () => now)
    expect(limiter.take('k')).toMatchObject({ allowed: true, remaining: 1 })
    expect(limiter.take('k')).toMatchObject({ allowed: true, remaining: 0 })
    expect(limiter.take('k')).toMatchObject({ allowed: false, remaining: 0, reset: 1060 })
    now += 60_000
    expect(limiter.take('k')).toMatchObject({ allowed: true, remaining: 1 })
  })

  it('counts each key separately', () => {
    const limiter = new RateLimiter(1)
    expect(limiter.take('a').allowed).toBe(true)
    expect(limiter.take('b').allowed).toBe(true)
    expect(limiter.take('a').allowed).toBe(false)
  })
})
