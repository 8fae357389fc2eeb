import { beforeAll, describe, expect, it } from 'vitest'
import {
  describeWithPrivateKeyring,
  runKeychainProbe,
  type ProbeResult,
} from '#test/support/secrets/keyring'

const linuxOnly = process.platform === 'linux' ? describe : describe.skip
if (process.platform !== 'linux') {
  console.warn('skipping the unreachable-keychain tests: they point D-Bus at nothing (Linux only)')
}

linuxOnly('keychain with no Secret Service on the session bus', () => {
  let results: Record<string, ProbeResult>
  beforeAll(async () => {
    results = await runKeychainProbe('unavailable')
  })

  it('fails a read with keychain_unavailable saying to install and unlock a keyring', () => {
    expect(results.get).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } })
    expect(results.get!.error!.message).toMatch(
      /probe-needs-key\/apiKey.*no Secret Service on the session bus: install and unlock gnome-keyring or KWallet/,
    )
    expect(results.get!.error!.details).toMatchObject({ failure: 'unavailable' })
  })

  it('never reports a missing entry as null when the store cannot be reached', () => {
    expect(results.getMissing).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } })
    expect(results.has).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } })
  })

  it('fails store and delete with keychain_unavailable', () => {
    expect(results.set).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } })
    expect(results.delete).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } })
  })

  it('fails resolving a server that references the keychain, naming the server', () => {
    expect(results.resolveNeedsKey).toMatchObject({
      ok: false,
      error: { code: 'keychain_unavailable', server: 'probe-needs-key' },
    })
    expect(results.resolveNeedsKey!.error!.message).toMatch(/^server probe-needs-key: /)
  })

  it('still resolves a server that needs no keychain secret', () => {
    expect(results.resolveNoKey).toEqual({
      ok: true,
      value: {
        url: 'http://127.0.0.1:9/mcp',
        headers: { 'X-Tenant': 'acme', 'X-Env': 'tenant-from-env' },
        env: {},
        missing: [],
      },
    })
  })

  it('lists references with unknown presence and the keychain error instead of failing', () => {
    expect(results.list).toMatchObject({
      ok: true,
      value: {
        keychain: { available: false, error: { code: 'keychain_unavailable' } },
        servers: [
          {
            server: 'probe-needs-key',
            refs: [{ kind: 'keychain', name: 'apiKey', present: null }],
          },
          { server: 'probe-no-key', refs: [{ kind: 'env', name: 'PROBE_TENANT', present: true }] },
        ],
      },
    })
  })
})

describeWithPrivateKeyring('keychain whose collection is locked', () => {
  let results: Record<string, ProbeResult>
  beforeAll(async () => {
    results = await runKeychainProbe('locked')
  })

  it('stored a value and locked the collection over D-Bus before probing', () => {
    expect(results.setBeforeLock).toEqual({ ok: true })
    expect(results.lock).toEqual({ ok: true, value: true })
  })

  it('fails reading an existing entry with keychain_unavailable saying to unlock the keyring', () => {
    expect(results.get).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } })
    expect(results.get!.error!.message).toMatch(/the keyring is locked: unlock it/)
    expect(results.get!.error!.details).toMatchObject({ failure: 'locked' })
    expect(results.has).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } })
  })

  it('fails store and delete of an existing entry with keychain_unavailable', () => {
    expect(results.set).toMatchObject({ ok: false, error: { details: { failure: 'locked' } } })
    expect(results.delete).toMatchObject({ ok: false, error: { details: { failure: 'locked' } } })
  })

  it('still reports an entry that does not exist as null (item attributes are not encrypted)', () => {
    expect(results.getMissing).toEqual({ ok: true, value: null })
  })

  it('fails resolving a server with keychain references and resolves one without', () => {
    expect(results.resolveNeedsKey).toMatchObject({
      ok: false,
      error: { code: 'keychain_unavailable', server: 'probe-needs-key' },
    })
    expect(results.resolveNoKey).toMatchObject({ ok: true, value: { missing: [] } })
  })
})
