import { describe, expect, it } from 'vitest'
import { duration, parseInvocation, selectionOf, splitCommandLine } from './args'
import { UsageError } from './exit-codes'

describe('command line parsing', () => {
  it('takes global options before or after the command', () => {
    const invocation = parseInvocation([
      'search',
      '--json',
      'vpn',
      '--user',
      'bob@example.com',
      '--tags',
      '["department:engineering"]',
      '--human-uid',
      'h-1',
      '--timeout',
      '5000',
    ])
    expect(invocation).toMatchObject({
      command: 'search',
      words: ['vpn'],
      global: {
        json: true,
        timeoutMs: 5000,
        actingUser: {
          userId: 'bob@example.com',
          sessionTags: ['department:engineering'],
          humanUid: 'h-1',
        },
      },
    })
  })

  it('refuses an option the command does not take, an unknown command and bad values', () => {
    expect(() => parseInvocation(['servers', '--tool', 'x'])).toThrow(
      /servers does not take --tool/,
    )
    expect(() => parseInvocation(['frobnicate'])).toThrow(UsageError)
    expect(() => parseInvocation(['--tags', '{"a":1}', 'servers'])).toThrow(/JSON array of strings/)
    expect(() => parseInvocation(['--timeout', '5s', 'servers'])).toThrow(/whole number/)
    expect(() => parseInvocation(['--bogus', 'servers'])).toThrow(UsageError)
  })

  it('builds a selection from --server and --source', () => {
    expect(selectionOf(['a'], ['b:x', 'b:y', 'c:tag/vpn'])).toEqual({
      a: [],
      b: ['x', 'y'],
      c: ['tag/vpn'],
    })
    expect(selectionOf([], [])).toBeUndefined()
    expect(() => selectionOf([], ['nocolon'])).toThrow(/SERVER:SOURCE/)
  })

  it('splits a --stdio command line with quotes and escapes', () => {
    expect(splitCommandLine(`node "my server.js" --name 'a b' c\\ d "x\\"y"`)).toEqual([
      'node',
      'my server.js',
      '--name',
      'a b',
      'c d',
      'x"y',
    ])
    expect(splitCommandLine('  a   ""  ')).toEqual(['a', ''])
    expect(() => splitCommandLine('node "open')).toThrow(/unclosed/)
  })
})

describe('durations (monitor --interval)', () => {
  it('reads ms, s, m and h, a bare number as seconds', () => {
    expect(duration('--interval', '500ms', 100, 86_400_000)).toBe(500)
    expect(duration('--interval', '15s', 100, 86_400_000)).toBe(15_000)
    expect(duration('--interval', '1.5', 100, 86_400_000)).toBe(1_500)
    expect(duration('--interval', '2m', 100, 86_400_000)).toBe(120_000)
    expect(duration('--interval', '1h', 100, 86_400_000)).toBe(3_600_000)
  })

  it('refuses other units, signs and values out of bounds', () => {
    for (const text of ['15 minutes', '-1s', '50ms', '25h', '', 'NaN']) {
      expect(() => duration('--interval', text, 100, 86_400_000), text).toThrow(UsageError)
    }
  })
})
