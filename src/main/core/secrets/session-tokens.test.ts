import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../api/dispatch'
import { createHandlers } from '../api/handlers'
import { createCore } from '../core'
import { SessionTokens } from './session-tokens'

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('SessionTokens', () => {
  it('keeps tokens per server and name', () => {
    const tokens = new SessionTokens()
    tokens.set('a', 'cap', 'value-a-cap')
    tokens.set('b', 'cap', 'value-b-cap')
    expect(tokens.get('a', 'cap')).toBe('value-a-cap')
    expect(tokens.get('b', 'cap')).toBe('value-b-cap')
    expect(tokens.get('a', 'other')).toBeUndefined()
  })

  it('lists names and times only, never values', () => {
    const tokens = new SessionTokens({ now: () => 1234 })
    tokens.set('b', 'y', 'value-b-y-1')
    tokens.set('a', 'x', 'value-a-x-1')
    expect(tokens.list()).toEqual([
      { server: 'a', name: 'x', setAt: 1234 },
      { server: 'b', name: 'y', setAt: 1234 },
    ])
    expect(tokens.list('b')).toEqual([{ server: 'b', name: 'y', setAt: 1234 }])
  })

  it('clears one token or all of a server, returning the names cleared', () => {
    const tokens = new SessionTokens()
    tokens.set('a', 'x', 'value-a-x-1')
    tokens.set('a', 'y', 'value-a-y-1')
    expect(tokens.clear('a', 'x')).toEqual(['x'])
    expect(tokens.clear('a', 'x')).toEqual([])
    tokens.set('a', 'z', 'value-a-z-1')
    expect(tokens.clear('a')).toEqual(['y', 'z'])
    expect(tokens.list()).toEqual([])
  })

  it('is never written to disk: no file in the data dir holds a token set over IPC', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rc-session-'))
    const core = await createCore({ dataDir, env: {} })
    const token = `session-only-${Date.now()}-canary`
    const handlers = createHandlers(core)
    expect(
      await dispatch(handlers, 'secrets:session-set', { server: 's1', name: 'cap', value: token }),
    ).toEqual({ ok: true, value: { server: 's1', name: 'cap' } })
    core.log.info('token in use', { token, note: `sent ${token}` })
    await core.dispose()
    const files = filesUnder(dataDir)
    expect(files.length).toBeGreaterThan(0) // the log at least
    for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain(token)
  })
})
