import { describe, expect, it } from 'vitest'
import type { SecretRefStatus, ServerSecrets, SessionTokenInfo } from '#shared/ipc/secrets'
import {
  groupId,
  missingCount,
  refStatus,
  secretsSummary,
  secretTarget,
  shownServers,
  unreferencedTokens,
} from './secrets-view'

const ref = (
  kind: SecretRefStatus['kind'],
  name: string,
  present: boolean | null,
): SecretRefStatus => ({ kind, name, present, where: ['url'] })
const token = (server: string, name: string): SessionTokenInfo => ({ server, name, setAt: 1 })

const kb: ServerSecrets = {
  server: 'knowledgeBase',
  refs: [ref('keychain', 'KB_TOKEN', true), ref('session', 'KB_SESSION', false)],
}
const wiki: ServerSecrets = { server: 'Wiki', refs: [ref('keychain', 'WIKI_KEY', null)] }
const plain: ServerSecrets = { server: 'plain', refs: [] }
const tokens = [
  token('knowledgeBase', 'KB_SESSION'),
  token('knowledgeBase', 'src-1'),
  token('Wiki', 'w'),
]
const all = { text: '', onlyMissing: false }

describe('capability tokens', () => {
  it('are the session tokens of the server that no session reference names', () => {
    expect(unreferencedTokens(kb, tokens).map((t) => t.name)).toEqual(['src-1'])
    expect(unreferencedTokens(plain, tokens)).toEqual([])
  })
})

describe('the servers the filters leave', () => {
  it('keeps every server and reference, with their capability tokens, unfiltered', () => {
    const shown = shownServers([kb, wiki, plain], tokens, all)
    expect(shown.map((s) => [s.server, s.refs.length, s.tokens.map((t) => t.name)])).toEqual([
      ['knowledgeBase', 2, ['src-1']],
      ['Wiki', 1, ['w']],
      ['plain', 0, []],
    ])
  })

  it('matches a part of the server id in any case, ignoring spaces around it', () => {
    expect(
      shownServers([kb, wiki], tokens, { ...all, text: ' wIK ' }).map((s) => s.server),
    ).toEqual(['Wiki'])
  })

  it('shows only references not known to be set, and no capability tokens, when asked', () => {
    const shown = shownServers([kb, wiki], tokens, { text: '', onlyMissing: true })
    expect(shown.map((s) => s.refs.map((r) => r.name))).toEqual([['KB_SESSION'], ['WIKI_KEY']])
    expect(shown.flatMap((s) => s.tokens)).toEqual([])
  })
})

describe('the head of the panel', () => {
  it('counts references, missing ones and servers with and without rows', () => {
    const summary = secretsSummary(shownServers([kb, wiki, plain], [], all))
    expect(summary.withRefs.map((s) => s.server)).toEqual(['knowledgeBase', 'Wiki'])
    expect(summary.without).toEqual(['plain'])
    expect(summary.missing).toBe(1)
    expect(summary.counted).toBe('3 references')
  })

  it('counts capability tokens beside references, and a server with only a token has rows', () => {
    const summary = secretsSummary(shownServers([kb, plain], [token('plain', 't')], all))
    expect(summary.counted).toBe('2 references and 1 capability token')
    expect(summary.without).toEqual([])
    expect(secretsSummary(shownServers([plain], [token('plain', 't')], all)).counted).toBe(
      '1 capability token',
    )
  })

  it('says "0 references" when there is nothing', () => {
    expect(secretsSummary([]).counted).toBe('0 references')
  })
})

describe('a row', () => {
  it('is set, missing, or unknown when the keychain could not be read', () => {
    expect(refStatus(ref('keychain', 'A', true))).toBe('set')
    expect(refStatus(ref('keychain', 'A', false))).toBe('missing')
    expect(refStatus(ref('keychain', 'A', null))).toBe('unknown')
    expect(missingCount([ref('keychain', 'A', false), ref('env', 'B', null)])).toBe(1)
  })

  it('targets its secret by server, name and kind; an unknown one is set, not replaced', () => {
    expect(secretTarget('kb', ref('keychain', 'A', null), 'keychain')).toEqual({
      server: 'kb',
      name: 'A',
      kind: 'keychain',
      present: false,
    })
    expect(secretTarget('kb', ref('session', 'S', true), 'session').present).toBe(true)
  })

  it('groups rows under an id that any server id makes valid', () => {
    expect(groupId('a b/c')).toBe('secrets-a%20b%2Fc')
  })
})
