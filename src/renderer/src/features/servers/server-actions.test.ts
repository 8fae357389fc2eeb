import { describe, expect, it } from 'vitest'
import type { SaveResult } from '#shared/ipc/registry'
import type { Diagnostic } from '#shared/model/registry'
import { busyKeys, enabledNotSaved, NO_KEYS, withKey, withoutKey } from './server-actions'

const diagnostic = (severity: Diagnostic['severity'], message: string): Diagnostic => ({
  severity,
  file: '/r/rag-mcp.json',
  path: 'kb.url',
  line: 1,
  column: 1,
  message,
  rule: 'invalid',
})

const conflict = (untrusted?: string): SaveResult => ({
  status: 'conflict',
  path: '/r/rag-mcp.json',
  diskExists: true,
  diskText: '{}',
  diskHash: 'h',
  proposedText: '{}',
  ...(untrusted === undefined ? {} : { untrusted }),
})

describe('busy keys', () => {
  it('adds and removes one key without touching the keys it was given', () => {
    const none = NO_KEYS
    const one = withKey(none, 'reconnect:kb')
    const two = withKey(one, 'sources:kb')
    expect([...busyKeys(two)]).toEqual(['reconnect:kb', 'sources:kb'])
    expect([...busyKeys(withoutKey(two, 'reconnect:kb'))]).toEqual(['sources:kb'])
    expect(busyKeys(none).size).toBe(0)
    expect([...busyKeys(one)]).toEqual(['reconnect:kb'])
  })

  it('keeps a key busy until every run of it has ended (two changes of one server’s sources)', () => {
    const both = withKey(withKey(NO_KEYS, 'sources:kb'), 'sources:kb')
    const firstEnded = withoutKey(both, 'sources:kb')
    expect(busyKeys(firstEnded).has('sources:kb')).toBe(true)
    expect(busyKeys(withoutKey(firstEnded, 'sources:kb')).size).toBe(0)
  })
})

describe('enabledNotSaved', () => {
  it('names the first error of an invalid registry, not its warnings', () => {
    const result: SaveResult = {
      status: 'invalid',
      path: '/r/rag-mcp.json',
      diagnostics: [diagnostic('warning', 'odd'), diagnostic('error', 'url is not a URL')],
    }
    expect(enabledNotSaved(result)).toBe(
      'rag-mcp.json would not be valid: url is not a URL. Fix it in Config first.',
    )
    expect(enabledNotSaved({ ...result, diagnostics: [] })).toBe(
      'rag-mcp.json would not be valid. Fix it in Config first.',
    )
  })

  it('says why the file on disk could not be trusted, else to try again', () => {
    expect(enabledNotSaved(conflict('The file is empty.'))).toBe('The file is empty.')
    expect(enabledNotSaved(conflict())).toBe('rag-mcp.json changed on disk meanwhile; try again.')
  })

  it('has nothing to say when it saved', () => {
    expect(enabledNotSaved({ status: 'saved', path: '/r/rag-mcp.json' } as SaveResult)).toBeNull()
  })
})
