import { describe, expect, it } from 'vitest'
import { configRefs, formatRef, isOnlyRefs, parseRefs, substituteRefs } from './refs'

describe('secret references', () => {
  it('parses keychain, env and session references in order', () => {
    expect(parseRefs('a ${keychain:apiKey} b ${env:HOME_DIR} ${session:cap.token-1}')).toEqual([
      { kind: 'keychain', name: 'apiKey' },
      { kind: 'env', name: 'HOME_DIR' },
      { kind: 'session', name: 'cap.token-1' },
    ])
  })

  it('ignores unknown kinds, empty names and unclosed references', () => {
    expect(parseRefs('${input:x} ${keychain:} ${keychain:a b} ${keychain:open')).toEqual([])
  })

  it('substitutes only the references it has a value for', () => {
    const values: Record<string, string> = { 'keychain:k': 'V1' }
    expect(
      substituteRefs('Bearer ${keychain:k}/${env:MISSING}', (r) => values[`${r.kind}:${r.name}`]),
    ).toBe('Bearer V1/${env:MISSING}')
  })

  it('lists each reference of url, headers and env once with every place it is used', () => {
    const uses = configRefs({
      url: 'https://h/mcp?k=${keychain:apiKey}',
      headers: { Authorization: 'Bearer ${keychain:apiKey}', 'X-Tenant': 'acme' },
      env: { TOKEN: '${session:cap}', HOME: '${env:HOME}' },
    })
    expect(uses).toEqual([
      { ref: { kind: 'keychain', name: 'apiKey' }, where: ['url', 'headers.Authorization'] },
      { ref: { kind: 'session', name: 'cap' }, where: ['env.TOKEN'] },
      { ref: { kind: 'env', name: 'HOME' }, where: ['env.HOME'] },
    ])
  })

  it('tells text made only of references from text holding a literal', () => {
    expect(isOnlyRefs(' ${keychain:a}${env:B} ')).toBe(true)
    expect(isOnlyRefs('sk-live-${keychain:a}')).toBe(false)
  })

  it('formats a reference as written in rag-mcp.json', () => {
    expect(formatRef({ kind: 'keychain', name: 'apiKey' })).toBe('${keychain:apiKey}')
  })
})
