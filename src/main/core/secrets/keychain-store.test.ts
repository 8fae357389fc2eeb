import { execFileSync } from 'node:child_process'
import { afterEach, expect, it } from 'vitest'
import { KEYCHAIN_SERVICE, KeychainStore } from './keychain-store'
import { createRedactor } from './redactor'
import { describeWithKeyring, onPath, uniqueServerId } from '#test/support/secrets/keyring'

const hasSecretTool = onPath('secret-tool')

describeWithKeyring('KeychainStore against the real Secret Service', () => {
  const store = new KeychainStore()
  const created: [string, string][] = []
  const server = (label: string): string => {
    const id = uniqueServerId(label)
    created.push([id, 'apiKey'])
    return id
  }

  afterEach(async () => {
    for (const [id, name] of created.splice(0)) await store.delete(id, name)
  })

  it('stores, reads, reports and deletes a value', async () => {
    const id = server('roundtrip')
    await store.set(id, 'apiKey', 'round-trip-value-1')
    expect(await store.get(id, 'apiKey')).toBe('round-trip-value-1')
    expect(await store.has(id, 'apiKey')).toBe(true)
    expect(await store.delete(id, 'apiKey')).toBe(true)
    expect(await store.get(id, 'apiKey')).toBeNull()
    expect(await store.has(id, 'apiKey')).toBe(false)
  })

  it('reports a value that was never stored as null, and its deletion as false', async () => {
    const id = server('absent')
    expect(await store.get(id, 'apiKey')).toBeNull()
    expect(await store.delete(id, 'apiKey')).toBe(false)
  })

  it('replaces a stored value', async () => {
    const id = server('replace')
    await store.set(id, 'apiKey', 'first-value-123')
    await store.set(id, 'apiKey', 'second-value-456')
    expect(await store.get(id, 'apiKey')).toBe('second-value-456')
  })

  it('keeps each server its own entry for the same name', async () => {
    const a = server('own-a')
    const b = server('own-b')
    await store.set(a, 'apiKey', 'value-of-server-a')
    expect(await store.get(b, 'apiKey')).toBeNull()
  })

  it.skipIf(!hasSecretTool)(
    'writes to the Secret Service under service rag-mcp-console, account <server>/<name>',
    async () => {
      const id = server('where')
      await store.set(id, 'apiKey', 'where-is-it-789')
      const found = execFileSync(
        'secret-tool',
        ['lookup', 'service', KEYCHAIN_SERVICE, 'username', `${id}/apiKey`],
        { encoding: 'utf8' },
      )
      expect(found).toBe('where-is-it-789')
    },
  )

  it('registers every value it stores or reads with the redactor', async () => {
    const redactor = createRedactor()
    const tracked = new KeychainStore({ redactor })
    const id = server('redactor')
    await store.set(id, 'apiKey', 'stored-elsewhere-1234')
    await tracked.get(id, 'apiKey')
    await tracked.set(id, 'other', 'stored-here-5678')
    created.push([id, 'other'])
    expect(redactor.redact('stored-elsewhere-1234 stored-here-5678')).toBe('[redacted] [redacted]')
  })
})

if (!hasSecretTool) {
  console.warn(
    'skipping the secret-tool lookup test: secret-tool is not installed (libsecret-tools)',
  )
}
