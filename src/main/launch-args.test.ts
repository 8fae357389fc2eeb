import { describe, expect, it } from 'vitest'
import {
  configArgument,
  launchRequest,
  receivedLaunchRequest,
  secondLaunchAction,
} from './launch-args'

describe('launch arguments', () => {
  it('reads --config in both spellings', () => {
    expect(configArgument(['electron', '.', '--config', 'a.json'])).toBe('a.json')
    expect(configArgument(['app', '--config=b.json'])).toBe('b.json')
    expect(configArgument(['app', '--inspect'])).toBeUndefined()
  })

  it("resolves a relative --config against the launch's own folder", () => {
    expect(launchRequest(['app', '--config', 'reg/rag.json'], '/home/ann/work')).toEqual({
      configPath: '/home/ann/work/reg/rag.json',
    })
    expect(launchRequest(['app', '--config=/etc/rag.json'], '/tmp')).toEqual({
      configPath: '/etc/rag.json',
    })
    expect(launchRequest(['app'], '/tmp')).toEqual({})
  })

  it('takes the path a second instance passed, or its argv when it passed none', () => {
    expect(receivedLaunchRequest({ configPath: '/srv/rag.json' }, [], '/')).toEqual({
      configPath: '/srv/rag.json',
    })
    expect(receivedLaunchRequest(undefined, ['app', '--config', 'x.json'], '/w')).toEqual({
      configPath: '/w/x.json',
    })
  })

  it('drops anything but an absolute path from another process', () => {
    for (const configPath of [42, '', 'relative.json', { toString: () => '/x' }]) {
      expect(receivedLaunchRequest({ configPath }, ['app', '--config', '/y.json'], '/')).toEqual({})
    }
  })

  it('focuses for the same or no registry, and offers a switch for another one', () => {
    expect(secondLaunchAction('/a.json', {})).toEqual({ kind: 'focus' })
    expect(secondLaunchAction('/a.json', { configPath: '/a.json' })).toEqual({ kind: 'focus' })
    expect(secondLaunchAction(undefined, { configPath: '/b.json' })).toEqual({
      kind: 'switch',
      configPath: '/b.json',
    })
  })
})
