import { describe, expect, it } from 'vitest'
import type { ServerConfig } from '#shared/config/schema'
import { validateText } from '#shared/config/validate'
import { configHash, diffRegistries, stableStringify } from './hash'

const base: ServerConfig = validateText(
  '/etc/rag-mcp.json',
  JSON.stringify({ a: { url: 'https://x/mcp', headers: { A: '1', B: '2' } } }),
).servers[0]!

describe('effective-config hash', () => {
  it('does not depend on key order', () => {
    const reordered = JSON.parse(
      stableStringify({ ...base, headers: { B: '2', A: '1' } }),
    ) as ServerConfig
    expect(configHash(reordered)).toBe(configHash(base))
    expect(stableStringify({ b: 1, a: { d: 1, c: 2 } })).toBe('{"a":{"c":2,"d":1},"b":1}')
  })

  it('ignores the file an entry came from but not any setting', () => {
    expect(configHash({ ...base, origin: '/other.json' })).toBe(configHash(base))
    expect(configHash({ ...base, timeoutMs: 1000 })).not.toBe(configHash(base))
    expect(configHash({ ...base, args: ['x'] })).not.toBe(configHash(base))
  })
})

describe('registry diff', () => {
  it('classifies ids as added, removed, changed and unchanged', () => {
    expect(diffRegistries({ a: '1', b: '2', c: '3' }, { a: '1', b: '9', d: '4' })).toEqual({
      added: ['d'],
      removed: ['c'],
      changed: ['b'],
      unchanged: ['a'],
    })
  })
})
