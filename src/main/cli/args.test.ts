import { describe, expect, it } from 'vitest'
import { parseInvocation, selectionOf, splitCommandLine } from './args'
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
