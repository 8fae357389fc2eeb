import { describe, expect, it } from 'vitest'
import { defaultDataDir } from './paths'

describe('defaultDataDir', () => {
  it('matches Electron userData on Linux', () => {
    expect(defaultDataDir({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.config/RAG Console')
    expect(defaultDataDir({ HOME: '/home/a', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe(
      '/x/RAG Console',
    )
  })

  it('matches Electron userData on macOS', () => {
    expect(defaultDataDir({ HOME: '/Users/a' }, 'darwin')).toBe(
      '/Users/a/Library/Application Support/RAG Console',
    )
  })

  it('is overridden by RAG_CONSOLE_HOME', () => {
    expect(defaultDataDir({ HOME: '/home/a', RAG_CONSOLE_HOME: '/tmp/rc' }, 'linux')).toBe(
      '/tmp/rc',
    )
  })
})
