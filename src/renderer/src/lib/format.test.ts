import { describe, expect, it } from 'vitest'
import { formatAgo, listNames, shortenPath } from './format'

describe('shortenPath', () => {
  it('leaves short paths alone', () => {
    expect(shortenPath('/etc/rag-mcp.json')).toBe('/etc/rag-mcp.json')
  })

  it('cuts the middle of a long path and keeps the folder and file name', () => {
    const long = '/home/someone/projects/a-very-long-folder-name/another-level/config/rag-mcp.json'
    const short = shortenPath(long, 48)
    expect(short.length).toBeLessThanOrEqual(48)
    expect(short.endsWith('/config/rag-mcp.json')).toBe(true)
    expect(short.startsWith('/home/')).toBe(true)
  })

  it('keeps the end of a path whose last two segments alone are too long', () => {
    const short = shortenPath(`/x/${'a'.repeat(80)}/file.json`, 30)
    expect(short).toHaveLength(30)
    expect(short.endsWith('/file.json')).toBe(true)
  })
})

describe('formatAgo', () => {
  it('speaks in minutes, hours and days', () => {
    const now = 1_000_000_000
    expect(formatAgo(now - 10_000, now)).toBe('just now')
    expect(formatAgo(now - 5 * 60_000, now)).toBe('5 min ago')
    expect(formatAgo(now - 3 * 3_600_000, now)).toBe('3 h ago')
    expect(formatAgo(now - 3 * 86_400_000, now)).toBe('3 d ago')
  })
})

describe('listNames', () => {
  it('names the first few and counts the rest', () => {
    expect(listNames(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c and 2 more')
  })
})
