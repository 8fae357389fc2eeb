import { describe, expect, it } from 'vitest'
import { formatSize, prettyJson, truncateText } from './json-text'

describe('json text', () => {
  it('pretty-prints, and names a value JSON cannot hold instead of throwing', () => {
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}')
    const loop: Record<string, unknown> = {}
    loop.self = loop
    expect(prettyJson(loop)).toMatch(/^\(cannot show as JSON/)
  })

  it('cuts long text at a line break before the limit', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n')
    const { shown, cut } = truncateText(text, 50)
    expect(cut).toBe(true)
    expect(shown.length).toBeLessThanOrEqual(50)
    expect(text.startsWith(shown)).toBe(true)
    expect(shown.endsWith('\n')).toBe(false)
  })

  it('leaves short text whole', () => {
    expect(truncateText('abc', 50)).toEqual({ shown: 'abc', cut: false })
  })

  it('formats sizes', () => {
    expect([formatSize(10), formatSize(12_700), formatSize(3_000_000)]).toEqual([
      '10 B',
      '12.4 kB',
      '2.9 MB',
    ])
  })
})
