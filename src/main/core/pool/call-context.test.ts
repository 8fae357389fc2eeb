import { describe, expect, it } from 'vitest'
import { CallTracker, type CallContext } from './call-context'

const call = (operation: string): CallContext => ({ serverId: 's', operation, requestIds: [] })

describe('CallTracker', () => {
  it('names the call a request is sent for only while it is being sent', () => {
    const tracker = new CallTracker()
    const search = call('search')
    const seen = tracker.sendAs(search, () => tracker.sender)
    expect(seen).toBe(search)
    expect(tracker.sender).toBeUndefined()
  })

  it('restores the outer call after a nested send, even one that throws', () => {
    const tracker = new CallTracker()
    const outer = call('outer')
    tracker.sendAs(outer, () => {
      expect(() =>
        tracker.sendAs(call('inner'), () => {
          throw new Error('boom')
        }),
      ).toThrow('boom')
      expect(tracker.sender).toBe(outer)
    })
  })

  it('lets a handshake own the requests sent while it runs, after awaits too', async () => {
    const tracker = new CallTracker()
    const connect = call('connect')
    const seen = await tracker.ownDuring(connect, async () => {
      await Promise.resolve()
      return tracker.sender
    })
    expect(seen).toBe(connect)
    expect(tracker.sender).toBeUndefined()
  })

  it('binds ids to their call and forgets them when the call ends', () => {
    const tracker = new CallTracker()
    const search = call('search')
    tracker.bind(7, search)
    expect(tracker.get('7')).toBe(search)
    tracker.release(search)
    expect(tracker.get(7)).toBeUndefined()
  })
})
