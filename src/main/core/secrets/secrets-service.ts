import type { ServerConfig } from '#shared/config/schema'
import { ConsoleError, type ErrorInfo } from '#shared/errors'
import {
  secretValueProblem,
  type SecretChange,
  type SecretRefStatus,
  type SecretsList,
  type ServerSecrets,
  type SessionTokenInfo,
} from '#shared/ipc/secrets'
import type { KeychainStore } from './keychain-store'
import type { SecretRedactor } from './redactor'
import { configRefs, isSecretName } from './refs'
import { createSecretResolver } from './resolver'
import type { SessionTokens } from './session-tokens'
import type { ResolvedConnection, SecretResolver } from './types'

export interface SecretsServiceDeps {
  keychain: KeychainStore
  session: SessionTokens
  redactor: SecretRedactor
  /** Where `${env:VAR}` reads from. */
  env: Record<string, string | undefined>
  /** The servers of the current registry, for listing what each one references. */
  servers: () => readonly ServerConfig[]
}

export type SecretChangeListener = (change: SecretChange) => void

/**
 * The secrets feature: keychain entries and session tokens per server, the resolver the pool
 * connects with, and change notifications. Values go in and never come back out, except through
 * {@link resolve} to the pool inside the main process.
 *
 * {@link onChanged} fires after every successful set or delete of a keychain entry or session
 * token, with `{server, name, kind, present}` (never the value): the pool listens to rebuild
 * that server's connection with the new value, without a restart. The core forwards the same
 * payload as the `secrets:changed` event.
 */
export class SecretsService implements SecretResolver {
  readonly keychain: KeychainStore
  readonly session: SessionTokens
  readonly redactor: SecretRedactor
  readonly resolver: SecretResolver
  private readonly listeners = new Set<SecretChangeListener>()

  constructor(private readonly deps: SecretsServiceDeps) {
    this.keychain = deps.keychain
    this.session = deps.session
    this.redactor = deps.redactor
    this.resolver = createSecretResolver(deps)
  }

  /** See {@link createSecretResolver}. */
  resolve(config: ServerConfig): Promise<ResolvedConnection> {
    return this.resolver.resolve(config)
  }

  /** Subscribes to set/delete of keychain entries and session tokens; returns the unsubscriber. */
  onChanged(listener: SecretChangeListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Each server's references with present/absent. A keychain that cannot be read makes its
   * entries `present: null` and is reported once in `keychain`, instead of failing the list.
   */
  async list(serverId?: string): Promise<SecretsList> {
    const all = this.deps.servers()
    const servers = serverId === undefined ? all : all.filter((s) => s.id === serverId)
    if (serverId !== undefined && servers.length === 0) {
      throw new ConsoleError({
        code: 'not_found',
        message: `server ${serverId} is not in the registry: add it to rag-mcp.json first`,
        server: serverId,
      })
    }
    let keychainError: ErrorInfo | undefined
    const out: ServerSecrets[] = []
    for (const server of servers) {
      const { refs, error } = await this.statusOf(server, keychainError !== undefined)
      keychainError ??= error
      out.push({ server: server.id, refs })
    }
    return {
      servers: out,
      keychain: keychainError ? { available: false, error: keychainError } : { available: true },
    }
  }

  /**
   * One server's references with present/absent; `skipKeychain` (or a keychain failure) leaves
   * keychain entries `present: null`.
   */
  async statusOf(
    config: ServerConfig,
    skipKeychain = false,
  ): Promise<{ refs: SecretRefStatus[]; error?: ErrorInfo }> {
    let error: ErrorInfo | undefined
    const refs: SecretRefStatus[] = []
    for (const { ref, where } of configRefs(config)) {
      let present: boolean | null
      if (ref.kind === 'env') present = Boolean(this.deps.env[ref.name])
      else if (ref.kind === 'session') present = this.session.has(config.id, ref.name)
      else if (skipKeychain || error) present = null
      else {
        try {
          present = await this.keychain.has(config.id, ref.name)
        } catch (failure) {
          error = ConsoleError.from(failure, 'keychain_unavailable').toInfo()
          present = null
        }
      }
      refs.push({ kind: ref.kind, name: ref.name, present, where })
    }
    return error ? { refs, error } : { refs }
  }

  /** Stores a keychain value for a server (which need not be configured yet). */
  async set(serverId: string, name: string, value: string): Promise<void> {
    checkName(name)
    checkValue(value)
    await this.keychain.set(serverId, name, value)
    this.changed({ server: serverId, name, kind: 'keychain', present: true })
  }

  /** Removes a keychain value; `false` when there was none (no change is announced then). */
  async delete(serverId: string, name: string): Promise<boolean> {
    checkName(name)
    const deleted = await this.keychain.delete(serverId, name)
    if (deleted) this.changed({ server: serverId, name, kind: 'keychain', present: false })
    return deleted
  }

  /** Keeps a token in memory for this session only. */
  setSessionToken(serverId: string, name: string, value: string): void {
    checkName(name)
    checkValue(value)
    this.session.set(serverId, name, value)
    this.changed({ server: serverId, name, kind: 'session', present: true })
  }

  /** Forgets one session token, or all of the server's; returns the names cleared. */
  clearSessionTokens(serverId: string, name?: string): string[] {
    if (name !== undefined) checkName(name)
    const cleared = this.session.clear(serverId, name)
    for (const gone of cleared) {
      this.changed({ server: serverId, name: gone, kind: 'session', present: false })
    }
    return cleared
  }

  listSessionTokens(serverId?: string): SessionTokenInfo[] {
    return this.session.list(serverId)
  }

  /** Forgets the session tokens and the listeners. */
  dispose(): void {
    this.session.clearAll()
    this.listeners.clear()
  }

  private changed(change: SecretChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change)
      } catch (error) {
        console.error('secrets: change listener failed:', this.redactor.redact(error))
      }
    }
  }
}

function checkName(name: string): void {
  if (!isSecretName(name)) {
    throw new ConsoleError({
      code: 'invalid_argument',
      message: `secret name ${JSON.stringify(name.slice(0, 40))} is invalid: use 1-128 letters, digits, "_", "." or "-"`,
    })
  }
}

function checkValue(value: string): void {
  const problem = typeof value === 'string' ? secretValueProblem(value) : 'the value is not text'
  if (problem) throw new ConsoleError({ code: 'invalid_argument', message: problem })
}
