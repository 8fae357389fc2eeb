import { ConsoleError } from '#shared/errors'

/** What the console was doing when the keychain failed. */
export type KeychainOperation = 'read' | 'store' | 'delete'

/** Why the keychain could not be used, as far as its error tells. */
export type KeychainFailure =
  'unavailable' | 'locked' | 'ambiguous' | 'invalid' | 'timeout' | 'other'

/** Reads a failure kind from the text of an error raised by the keychain library. */
export function classifyKeychainError(message: string): KeychainFailure {
  if (/locked|unlock|interaction is not allowed|passphrase/i.test(message)) return 'locked'
  if (/matched by \d+ credentials|ambiguous/i.test(message)) return 'ambiguous'
  if (/longer than platform limit|is invalid|bad encoding/i.test(message)) return 'invalid'
  if (/platform failure|dbus|storage access|couldn't access platform storage/i.test(message)) {
    return 'unavailable'
  }
  return 'other'
}

const UNAVAILABLE_HINT: Partial<Record<NodeJS.Platform, string>> = {
  linux:
    'no Secret Service on the session bus: install and unlock gnome-keyring or KWallet ' +
    '(a D-Bus session must be running: DBUS_SESSION_BUS_ADDRESS)',
  darwin: 'the macOS Keychain cannot be reached: open Keychain Access and check the login keychain',
  win32:
    'Windows Credential Manager cannot be reached: check that the Credential Manager service runs',
}

const LOCKED_HINT: Partial<Record<NodeJS.Platform, string>> = {
  linux:
    'the keyring is locked: unlock it (log in to the desktop session, or open Passwords and Keys / ' +
    'KWallet Manager and unlock the default keyring), then retry',
  darwin: 'the login keychain is locked: unlock it in Keychain Access, then retry',
}

/**
 * A typed, actionable error for a keychain failure. The account names the server and secret;
 * the library's own text is kept in `details.reason` (it never contains the value).
 */
export function keychainError(
  cause: unknown,
  context: { operation: KeychainOperation; account: string; platform: NodeJS.Platform },
): ConsoleError {
  if (cause instanceof ConsoleError) return cause
  const reason = cause instanceof Error ? cause.message : String(cause)
  const failure = cause instanceof KeychainTimeout ? 'timeout' : classifyKeychainError(reason)
  const what = `cannot ${context.operation} keychain entry "${context.account}"`
  const hint = {
    unavailable: UNAVAILABLE_HINT[context.platform] ?? 'the OS keychain cannot be reached',
    locked: LOCKED_HINT[context.platform] ?? 'the keychain is locked: unlock it, then retry',
    ambiguous:
      'more than one keychain item matches it: delete the duplicates in your keychain manager',
    invalid: 'the keychain refused the entry name or value',
    timeout:
      'the keychain did not answer in time (an unlock prompt may be waiting): unlock it, then retry',
    other: 'the OS keychain failed: check that it is installed, running and unlocked',
  }[failure]
  return new ConsoleError(
    {
      code:
        failure === 'ambiguous'
          ? 'conflict'
          : failure === 'invalid'
            ? 'invalid_argument'
            : 'keychain_unavailable',
      message: `${what}: ${hint}`,
      origin: 'local',
      details: { failure, reason, account: context.account },
    },
    { cause },
  )
}

/** The error raised when the keychain does not answer within the store's time limit. */
export class KeychainTimeout extends Error {
  constructor(ms: number) {
    super(`no answer from the keychain within ${ms} ms`)
    this.name = 'KeychainTimeout'
  }
}
