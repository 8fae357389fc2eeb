import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import type { KeychainStore } from '../secrets/keychain-store'

/** Tokens as kept: what the token endpoint sent, and when the access token expires. */
export interface StoredTokens {
  tokens: OAuthTokens
  /** Epoch ms; absent when the server gave no lifetime. */
  expiresAt?: number
}

/** What is kept per server (and per acting profile for per-user servers). */
type Entry = 'tokens' | 'client' | 'verifier'

/** Where the values of one vault live: the OS keychain, or memory for ad-hoc servers. */
export interface VaultBackend {
  get(name: string): Promise<string | null>
  set(name: string, value: string): Promise<void>
  delete(name: string): Promise<boolean>
}

/** Keychain entries `<serverId>/oauth.tokens` (or `oauth.<profile>.tokens`), and so on. */
export function keychainBackend(keychain: KeychainStore, serverId: string): VaultBackend {
  return {
    get: (name) => keychain.get(serverId, name),
    set: (name, value) => keychain.set(serverId, name, value),
    delete: (name) => keychain.delete(serverId, name),
  }
}

/** For servers given on the command line: nothing outlives the process. */
export function memoryBackend(values: Map<string, string>): VaultBackend {
  return {
    get: async (name) => values.get(name) ?? null,
    set: async (name, value) => void values.set(name, value),
    delete: async (name) => values.delete(name),
  }
}

function parse<T>(text: string | null): T | undefined {
  if (text === null) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as T) : undefined
  } catch {
    // A damaged entry is as good as none: the next sign-in replaces it.
    return undefined
  }
}

/**
 * One server's OAuth secrets: access and refresh tokens, the registered client and the PKCE
 * verifier of a sign-in in progress. Values never leave the main process.
 */
export class OAuthVault {
  constructor(
    private readonly backend: VaultBackend,
    /** Acting profile id for per-user servers; undefined: one set of tokens per server. */
    readonly profileId: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  private name(entry: Entry): string {
    return this.profileId ? `oauth.${this.profileId}.${entry}` : `oauth.${entry}`
  }

  async tokens(): Promise<StoredTokens | undefined> {
    const stored = parse<StoredTokens>(await this.backend.get(this.name('tokens')))
    return typeof stored?.tokens?.access_token === 'string' ? stored : undefined
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const stored: StoredTokens = { tokens }
    if (typeof tokens.expires_in === 'number') {
      stored.expiresAt = this.now() + tokens.expires_in * 1000
    }
    await this.backend.set(this.name('tokens'), JSON.stringify(stored))
  }

  async client(): Promise<OAuthClientInformationMixed | undefined> {
    const client = parse<OAuthClientInformationMixed>(await this.backend.get(this.name('client')))
    return typeof client?.client_id === 'string' ? client : undefined
  }

  async saveClient(client: OAuthClientInformationMixed): Promise<void> {
    await this.backend.set(this.name('client'), JSON.stringify(client))
  }

  async verifier(): Promise<string | undefined> {
    return (await this.backend.get(this.name('verifier'))) ?? undefined
  }

  async saveVerifier(verifier: string): Promise<void> {
    await this.backend.set(this.name('verifier'), verifier)
  }

  /** Forgets what the SDK asks to forget (`all` keeps nothing). */
  async clear(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const entries: Entry[] =
      scope === 'all' ? ['tokens', 'client', 'verifier'] : scope === 'discovery' ? [] : [scope]
    for (const entry of entries) await this.backend.delete(this.name(entry))
  }
}
