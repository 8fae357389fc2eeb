import { describe, expect, it } from 'vitest'
import type { ServerConfig } from './schema'
import { fieldChanges } from './field-changes'
import { validateText } from './validate'

const config = (entry: Record<string, unknown>): ServerConfig =>
  validateText('/etc/rag-mcp.json', JSON.stringify({ kb: entry })).servers[0]!

const http = { url: 'http://127.0.0.1:9/mcp', timeoutMs: 10000 }

describe('fieldChanges', () => {
  it('names each changed field with its old and new value', () => {
    expect(fieldChanges(config(http), config({ ...http, timeoutMs: 60000 }))).toEqual([
      { path: 'timeoutMs', before: '10000', after: '60000' },
    ])
  })

  it('goes into objects, and says when a field is new or gone', () => {
    const before = config({ ...http, headers: { 'x-team': 'a' }, description: 'KB' })
    const after = config({ ...http, headers: { 'x-team': 'b', 'x-env': 'prod' } })
    expect(fieldChanges(before, after)).toEqual([
      { path: 'description', before: '"KB"' },
      { path: 'headers.x-env', after: '"prod"' },
      { path: 'headers.x-team', before: '"a"', after: '"b"' },
    ])
  })

  it('never shows a plaintext secret, only that it changed; references show as written', () => {
    const before = config({
      ...http,
      headers: { Authorization: 'Bearer sk-aaaaaaaaaaaaaaaaaaaaaaaa' },
    })
    const after = config({
      ...http,
      headers: { Authorization: 'Bearer sk-bbbbbbbbbbbbbbbbbbbbbbbb' },
    })
    const changes = fieldChanges(before, after)
    expect(changes).toEqual([
      { path: 'headers.Authorization', before: '"••••••"', after: '"••••••"' },
    ])
    expect(JSON.stringify(changes)).not.toMatch(/sk-/)
    const referenced = config({ ...http, headers: { Authorization: 'Bearer ${keychain:apiKey}' } })
    expect(fieldChanges(before, referenced)).toEqual([
      {
        path: 'headers.Authorization',
        before: '"••••••"',
        after: '"Bearer ${keychain:apiKey}"',
      },
    ])
  })

  it('shows a list as a whole, cut when long, and leaves out where the entry came from', () => {
    const long = Array.from({ length: 40 }, (_, i) => `--flag-${i}`)
    const before = { ...config({ transport: 'stdio', command: 'node', args: ['a.js'] }) }
    const after = { ...config({ transport: 'stdio', command: 'node', args: long }), origin: '/x' }
    const [change, ...rest] = fieldChanges(before, after)
    expect(rest).toEqual([])
    expect(change).toMatchObject({ path: 'args', before: '["a.js"]' })
    expect(change!.after!.length).toBeLessThanOrEqual(120)
    expect(change!.after!.endsWith('…')).toBe(true)
  })
})
