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
      call: { command: 'search', words: ['vpn'] },
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

  it('refuses a command name that is only a built-in property of an object', () => {
    for (const word of ['toString', 'constructor', '__proto__']) {
      expect(() => parseInvocation([word]), word).toThrow(/unknown command/)
    }
  })

  it('gives a command its options as the table types them: numbers checked, defaults, aliases', () => {
    expect(
      parseInvocation(['search', 'vpn', '--top-k', '7', '--server', 'a', '--server', 'b']).call,
    ).toEqual({ command: 'search', words: ['vpn'], options: { 'top-k': 7, server: ['a', 'b'] } })
    expect(() => parseInvocation(['search', 'vpn', '--top-k', '0'])).toThrow(
      '--top-k must be a whole number from 1 to 100 (got "0")',
    )
    expect(() => parseInvocation(['call', '--connect-timeout', '5s'])).toThrow(
      '--connect-timeout must be a whole number from 100 to 300000 (got "5s")',
    )
    expect(parseInvocation(['monitor']).call?.options).toEqual({
      'metrics-port': 9470,
      'metrics-host': '127.0.0.1',
      interval: '15s',
    })
    expect(parseInvocation(['eval', '-c', '--qrels', 'q', '--run', 'r']).call?.options).toEqual({
      complete: true,
      qrels: 'q',
      run: 'r',
    })
    expect(parseInvocation(['-h']).help).toBe(true)
  })

  it('checks an option that takes one of a few words, with one message for all', () => {
    for (const [argv, message] of [
      [
        ['search', 'vpn', '--fusion', 'max'],
        '--fusion must be one of rrf, score, minmax (got "max")',
      ],
      [['eval', '--format', 'csv'], '--format must be one of table, json, trec (got "csv")'],
      [
        ['tools', '--url', 'http://x/', '--transport', 'ws'],
        '--transport must be one of http, sse (got "ws")',
      ],
      [
        ['call', '--elicit', 'maybe'],
        '--elicit must be one of ask, accept-defaults, decline, cancel (got "maybe")',
      ],
    ] as const) {
      expect(() => parseInvocation([...argv])).toThrow(message)
    }
    expect(parseInvocation(['search', 'vpn', '--fusion', 'minmax']).call?.options).toEqual({
      fusion: 'minmax',
    })
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
