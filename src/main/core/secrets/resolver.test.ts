import { afterEach, describe, expect, it } from 'vitest'
import { KeychainStore } from './keychain-store'
import { createRedactor, REDACTED } from './redactor'
import { createSecretResolver } from './resolver'
import { SessionTokens } from './session-tokens'
import { describeWithKeyring, uniqueServerId } from '#test/support/secrets/keyring'
import { serverConfig } from '#test/support/config/server-config'

describe('resolver: env and session references', () => {
  // The keychain is never asked here: a store that cannot even be opened proves it.
  const unreachable = new KeychainStore({
    openEntry: () => Promise.reject(new Error('Platform failure: DBus error: no bus')),
  })

  it('fills env and session references in url, headers and env', async () => {
    const redactor = createRedactor()
    const session = new SessionTokens()
    session.set('s1', 'cap', 'capability-token-77')
    const resolver = createSecretResolver({
      keychain: unreachable,
      session,
      env: { TENANT_KEY: 'tenant-key-value-1' },
      redactor,
    })
    const resolved = await resolver.resolve(
      serverConfig('s1', {
        url: 'https://h.example/mcp?t=${env:TENANT_KEY}',
        headers: { 'X-Capability': '${session:cap}', 'X-Plain': 'plain' },
        env: { TOKEN: 'tok:${session:cap}' },
      }),
    )
    expect(resolved).toEqual({
      url: 'https://h.example/mcp?t=tenant-key-value-1',
      headers: { 'X-Capability': 'capability-token-77', 'X-Plain': 'plain' },
      env: { TOKEN: 'tok:capability-token-77' },
      missing: [],
    })
  })

  it('returns unset references as missing and leaves them as written', async () => {
    const resolver = createSecretResolver({
      keychain: unreachable,
      session: new SessionTokens(),
      env: { EMPTY: '' },
      redactor: createRedactor(),
    })
    const resolved = await resolver.resolve(
      serverConfig('s1', { headers: { A: '${env:NOPE}', B: '${session:cap}', C: '${env:EMPTY}' } }),
    )
    expect(resolved.missing).toEqual([
      { kind: 'env', name: 'NOPE' },
      { kind: 'session', name: 'cap' },
      { kind: 'env', name: 'EMPTY' },
    ])
    expect(resolved.headers).toEqual({ A: '${env:NOPE}', B: '${session:cap}', C: '${env:EMPTY}' })
  })

  it('registers every resolved value with the redactor', async () => {
    const redactor = createRedactor()
    const resolver = createSecretResolver({
      keychain: unreachable,
      session: new SessionTokens(),
      env: { KEY: 'from-the-environment-9' },
      redactor,
    })
    await resolver.resolve(serverConfig('s1', { headers: { K: '${env:KEY}' } }))
    expect(redactor.redact('log: from-the-environment-9')).toBe(`log: ${REDACTED}`)
  })
})

describeWithKeyring('resolver: keychain references in the real Secret Service', () => {
  const keychain = new KeychainStore()
  const cleanup: [string, string][] = []
  afterEach(async () => {
    for (const [id, name] of cleanup.splice(0)) await keychain.delete(id, name)
  })

  it('resolves keychain, env and session references together', async () => {
    const id = uniqueServerId('resolve-all')
    cleanup.push([id, 'apiKey'])
    await keychain.set(id, 'apiKey', 'keychain-api-key-123')
    const session = new SessionTokens()
    session.set(id, 'cap', 'session-capability-456')
    const redactor = createRedactor()
    const resolver = createSecretResolver({ keychain, session, env: { T: 'acme' }, redactor })
    const resolved = await resolver.resolve(
      serverConfig(id, {
        headers: {
          Authorization: 'Bearer ${keychain:apiKey}',
          'X-Tenant': '${env:T}',
          'X-Cap': '${session:cap}',
        },
      }),
    )
    expect(resolved.headers).toEqual({
      Authorization: 'Bearer keychain-api-key-123',
      'X-Tenant': 'acme',
      'X-Cap': 'session-capability-456',
    })
    expect(resolved.missing).toEqual([])
    expect(redactor.redact('keychain-api-key-123')).toBe(REDACTED)
  })

  it('returns a keychain secret that is not stored as missing, not as an error', async () => {
    const id = uniqueServerId('resolve-missing')
    const resolver = createSecretResolver({
      keychain,
      session: new SessionTokens(),
      env: {},
      redactor: createRedactor(),
    })
    const resolved = await resolver.resolve(
      serverConfig(id, { headers: { Authorization: 'Bearer ${keychain:apiKey}' } }),
    )
    expect(resolved.missing).toEqual([{ kind: 'keychain', name: 'apiKey' }])
  })
})
