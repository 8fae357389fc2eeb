import { describe, expect, it } from 'vitest'
import type { OptInEvent } from './events'
import { PageListeners } from './listeners'

describe('PageListeners', () => {
  it('tells the bridge when the first listener of an opt-in event comes and the last goes', () => {
    const told: OptInEvent[][] = []
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
    const told: OptInEvent[][] = []
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

  it('refuses an unknown event name', () => {
    const listeners = new PageListeners(() => undefined)
    expect(() => listeners.on('nope' as never, () => undefined)).toThrow('unknown event nope')
  })
})
