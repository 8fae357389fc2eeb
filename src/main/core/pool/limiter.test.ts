import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import { Limiter } from './limiter'

describe('Limiter', () => {
  it('grants at most max slots and hands freed slots out in order', async () => {
    const limiter = new Limiter(2)
    const a = await limiter.acquire()
    await limiter.acquire()
    const order: string[] = []
    const c = limiter.acquire().then((release) => (order.push('c'), release))
    const d = limiter.acquire().then((release) => (order.push('d'), release))
    expect(limiter.queued).toBe(2)
    a()
    a() // releasing twice frees one slot only
    await c
    expect(limiter.active).toBe(2)
    expect(order).toEqual(['c'])
    expect(limiter.queued).toBe(1)
    void d
  })

  it('drops a waiting call whose signal aborts', async () => {
    const limiter = new Limiter(1)
    await limiter.acquire()
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort(new Error('gave up'))
    await expect(waiting).rejects.toThrow('gave up')
    expect(limiter.queued).toBe(0)
  })

  it('fails every waiting call on rejectAll', async () => {
    const limiter = new Limiter(1)
    await limiter.acquire()
    const waiting = limiter.acquire()
    limiter.rejectAll(new ConsoleError({ code: 'not_connected', message: 'gone' }))
    await expect(waiting).rejects.toMatchObject({ code: 'not_connected' })
  })
})
