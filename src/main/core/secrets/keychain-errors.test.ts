import { describe, expect, it } from 'vitest'
import { classifyKeychainError, keychainError } from './keychain-errors'
import { KeychainStore } from './keychain-store'

// Texts the library raised on this machine (see keychain-failures.test.ts for the real runs).
const OBSERVED = {
  noSocket:
    'Platform failure: DBus error: Failed to connect to socket /x/bus: No such file or directory',
  noService:
    'Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files',
  noAddress:
    'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead',
  prompt: "Couldn't access platform storage: Secret Service: unlock prompt was dismissed",
  isLocked:
    'zbus error: org.freedesktop.Secret.Error.IsLocked: Cannot get secret of a locked object',
}

describe('keychain errors', () => {
  it('reads an unreachable bus or a missing Secret Service as unavailable', () => {
    expect(classifyKeychainError(OBSERVED.noSocket)).toBe('unavailable')
    expect(classifyKeychainError(OBSERVED.noService)).toBe('unavailable')
    expect(classifyKeychainError(OBSERVED.noAddress)).toBe('unavailable')
  })

  it('reads a dismissed unlock prompt or IsLocked as locked', () => {
    expect(classifyKeychainError(OBSERVED.prompt)).toBe('locked')
    expect(classifyKeychainError(OBSERVED.isLocked)).toBe('locked')
  })

  it('reports duplicate items as a conflict saying what to delete', () => {
    const error = keychainError(new Error('Entry is matched by 2 credentials: [..]'), {
      operation: 'read',
      account: 's1/apiKey',
      platform: 'linux',
    })
    expect(error.code).toBe('conflict')
    expect(error.message).toMatch(/s1\/apiKey.*delete the duplicates/)
  })

  it('gives platform advice for a locked macOS keychain', () => {
    const error = keychainError(new Error('User interaction is not allowed.'), {
      operation: 'read',
      account: 's1/apiKey',
      platform: 'darwin',
    })
    expect(error.code).toBe('keychain_unavailable')
    expect(error.message).toMatch(/login keychain is locked: unlock it in Keychain Access/)
  })

  it('gives up on a keychain that does not answer in time', async () => {
    // An unlock prompt nobody answers: the OS side never replies.
    const store = new KeychainStore({
      timeoutMs: 50,
      openEntry: async () => ({
        getPassword: () => new Promise<never>(() => {}),
        setPassword: () => new Promise<never>(() => {}),
        deleteCredential: () => new Promise<never>(() => {}),
      }),
    })
    await expect(store.get('s1', 'apiKey')).rejects.toMatchObject({
      code: 'keychain_unavailable',
      details: { failure: 'timeout' },
      message: expect.stringMatching(/did not answer in time.*unlock it/),
    })
  })
})
