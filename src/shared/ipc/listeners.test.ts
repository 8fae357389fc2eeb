import { describe, expect, it } from 'vitest'
import type { OptIn } from './events'
import { PageListeners } from './listeners'

describe('PageListeners', () => {
  it('tells the bridge when the first listener of an opt-in event comes and the last goes', () => {
    const told: OptIn[][] = []
    const listeners = new PageListeners((events) => told.push(events))
    const stopA = listeners.on('workbench:protocol', () => undefined)
    const stopB = listeners.on('workbench:protocol', () => undefined)
    expect(told).toEqual([['workbench:protocol']])
    stopA()
    expect(told).toHaveLength(1)
    stopB()
    stopB()
    expect(told).toEqual([['workbench:protocol'], []])
    expect(listeners.optedIn()).toEqual([])
  })

  it('never tells it about events every page gets, and passes events to their listeners', () => {
    const told: OptIn[][] = []
    const listeners = new PageListeners((events) => told.push(events))
    const got: unknown[] = []
    const stop = listeners.on('app:notice', (payload) => got.push(payload))
    listeners.emit('app:notice', { level: 'info', message: 'hi', at: 1 })
    listeners.emit('server:status', {})
    stop()
    listeners.emit('app:notice', { level: 'info', message: 'gone', at: 2 })
    expect(got).toEqual([{ level: 'info', message: 'hi', at: 1 }])
    expect(told).toEqual([])
  })

  it('asks only for the servers its scoped listeners show, and for all once one takes every server', () => {
    const told: OptIn[][] = []
    const listeners = new PageListeners((wanted) => told.push(wanted))
    const got: string[] = []
    const entry = (server: string) => ({ server, entries: [] })
    const stopA = listeners.on('workbench:protocol', () => got.push('a'), { server: 'a' })
    const stopA2 = listeners.on('workbench:protocol', () => got.push('a2'), { server: 'a' })
    const stopB = listeners.on('workbench:protocol', () => got.push('b'), { server: 'b' })
    listeners.emit('workbench:protocol', entry('a'))
    listeners.emit('workbench:protocol', entry('c'))
    expect(got).toEqual(['a', 'a2'])
    const stopAll = listeners.on('workbench:protocol', () => got.push('all'))
    stopAll()
    stopA()
    stopA2()
    stopB()
    const a = { event: 'workbench:protocol', server: 'a' }
    const b = { event: 'workbench:protocol', server: 'b' }
    // A second listener of a server already asked for changes nothing main needs to hear.
    expect(told).toEqual([[a], [a, b], ['workbench:protocol'], [a, b], [b], []])
  })

  it('refuses a scope for an event every page gets', () => {
    const listeners = new PageListeners(() => undefined)
    expect(() => listeners.on('server:status', () => undefined, { server: 'a' } as never)).toThrow(
      'event server:status has no scope',
    )
  })

  it('refuses an unknown event name', () => {
    const listeners = new PageListeners(() => undefined)
    expect(() => listeners.on('nope' as never, () => undefined)).toThrow('unknown event nope')
  })
})
