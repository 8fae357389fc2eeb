import type * as NapiKeyring from '@napi-rs/keyring'
import type { EntryOptions } from '@napi-rs/keyring'
import { KeychainTimeout, keychainError, type KeychainOperation } from './keychain-errors'
import type { Redactor } from './types'

/** The keychain service every entry of the console is stored under. */
export const KEYCHAIN_SERVICE = 'rag-mcp-console'

/** Default time limit of one keychain call; an unlock prompt may hold it this long. */
export const KEYCHAIN_TIMEOUT_MS = 60_000

// Without the pin, keyring-rs silently falls back to the Linux kernel keyring when no Secret
// Service answers: secrets would land in a store that does not keep them across reboots.
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } }

/** The part of `@napi-rs/keyring`'s `AsyncEntry` the store uses. */
export interface KeychainEntry {
  /** The value, or `null` when there is no entry; rejects when the store cannot be read. */
  getPassword(): Promise<string | null>
  setPassword(password: string): Promise<void>
  /** `true` when an entry was deleted, `false` when there was none. */
  deleteCredential(): Promise<boolean>
}

/** Opens the entry of one account; may throw when no keychain can be reached. */
export type OpenKeychainEntry = (service: string, account: string) => Promise<KeychainEntry>

let keyringModule: Promise<typeof NapiKeyring> | undefined

/**
 * The OS keychain through `@napi-rs/keyring`: macOS Keychain, Windows Credential Manager, and
 * the Secret Service (gnome-keyring, KWallet) on Linux. The native module loads on first use,
 * so a machine where it cannot load still runs every server that needs no secret.
 */
export const openOsKeychainEntry: OpenKeychainEntry = async (service, account) => {
  keyringModule ??= import('@napi-rs/keyring')
  const { AsyncEntry } = await keyringModule
  return new AsyncEntry(service, account, ENTRY_OPTIONS)
}

export interface KeychainStoreOptions {
  /** Defaults to {@link KEYCHAIN_SERVICE}. */
  service?: string
  /** Defaults to {@link openOsKeychainEntry}, the real OS keychain. */
  openEntry?: OpenKeychainEntry
  /** Defaults to {@link KEYCHAIN_TIMEOUT_MS}. */
  timeoutMs?: number
  /** Chooses the advice in error messages; defaults to `process.platform`. */
  platform?: NodeJS.Platform
  /** Every value read or stored is registered with it. */
  redactor?: Redactor
}

/** `<serverId>/<name>`: the keychain account of one server's secret. */
export function keychainAccount(serverId: string, name: string): string {
  return `${serverId}/${name}`
}

/**
 * Per-server secrets in the OS keychain, service `rag-mcp-console`, account `<serverId>/<name>`.
 * A missing entry is `null` / `false`; a keychain that cannot be reached or is locked is a
 * `ConsoleError` with code `keychain_unavailable` saying what to do (never a silent `null`).
 * {@link get} is for the main process only: nothing it returns may cross IPC.
 */
export class KeychainStore {
  private readonly service: string
  private readonly openEntry: OpenKeychainEntry
  private readonly timeoutMs: number
  private readonly platform: NodeJS.Platform
  private readonly redactor: Redactor | undefined

  constructor(options: KeychainStoreOptions = {}) {
    this.service = options.service ?? KEYCHAIN_SERVICE
    this.openEntry = options.openEntry ?? openOsKeychainEntry
    this.timeoutMs = options.timeoutMs ?? KEYCHAIN_TIMEOUT_MS
    this.platform = options.platform ?? process.platform
    this.redactor = options.redactor
  }

  /** The stored value, or `null` when the server has no such secret. */
  async get(serverId: string, name: string): Promise<string | null> {
    const value = await this.run('read', serverId, name, (entry) => entry.getPassword())
    if (value !== null) this.redactor?.add(value)
    return value
  }

  /** Stores (or replaces) a value. */
  async set(serverId: string, name: string, value: string): Promise<void> {
    this.redactor?.add(value)
    await this.run('store', serverId, name, (entry) => entry.setPassword(value))
  }

  /** Removes a value; `false` when there was none. */
  async delete(serverId: string, name: string): Promise<boolean> {
    return this.run('delete', serverId, name, (entry) => entry.deleteCredential())
  }

  /** Whether a value is stored (it is read, never returned). */
  async has(serverId: string, name: string): Promise<boolean> {
    return (await this.get(serverId, name)) !== null
  }

  private async run<T>(
    operation: KeychainOperation,
    serverId: string,
    name: string,
    call: (entry: KeychainEntry) => Promise<T>,
  ): Promise<T> {
    const account = keychainAccount(serverId, name)
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new KeychainTimeout(this.timeoutMs)), this.timeoutMs)
    })
    try {
      const work = this.openEntry(this.service, account).then(call)
      return await Promise.race([work, timeout])
    } catch (error) {
      throw keychainError(error, { operation, account, platform: this.platform })
    } finally {
      clearTimeout(timer)
    }
  }
}
