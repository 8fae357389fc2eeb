import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import type { ServerConfig } from '../../../shared/config/schema'
import { CLIENT_SECRET_REF } from '../../../shared/config/validate'
import { ConsoleError, toErrorInfo, type ErrorInfo } from '../../../shared/errors'
import type { OAuthStatus } from '../../../shared/ipc/auth'
import type { ServerStatus } from '../../../shared/model/server'
import type { EventBus } from '../events'
import type { Logger } from '../log'
import type { KeychainStore } from '../secrets/keychain-store'
import { networkFailure } from '../pool/classify'
import type { Redactor, ResolvedConnection } from '../secrets/types'
import { accountOf } from './account'
import { LoopbackRedirect } from './loopback'
import { fetchOpener, type Opener } from './opener'
import type { PoolAuth } from './pool-auth'
import { ConsoleOAuthProvider, type Challenge, type ProviderOptions } from './provider'
import { AD_HOC_ORIGIN, challengeParams, type SignInRequest } from './sign-in-error'
import { keychainBackend, memoryBackend, OAuthVault } from './vault'

export interface OAuthServiceDeps {
  keychain: KeychainStore
  /** A server's effective config (registry or ad hoc), or undefined. */
  config(serverId: string): ServerConfig | undefined
  /** Every registry server, for `auth:status` without a server. */
  servers(): ServerConfig[]
  resolve(config: ServerConfig): Promise<ResolvedConnection>
  pool: {
    reconnect(serverId: string): Promise<unknown>
    /** Undefined when the server is not in the pool. */
    status(serverId: string): ServerStatus | undefined
  }
  events: EventBus
  /** The acting profile, for servers whose tokens are per user. */
  profileId(): string
  env: NodeJS.ProcessEnv
  redactor: Redactor
  logger?: Logger
  fetch?: FetchLike
  now?: () => number
}

export interface LoginOptions extends SignInRequest {
  /** Shows the authorization URL (the desktop's browser, the CLI's terminal). */
  opener?: Opener
  /** Reconnect the server in the pool once signed in (default true). */
  reconnect?: boolean
}

interface Flight {
  abort: AbortController
  promise: Promise<OAuthStatus>
  authorizationUrl?: string
}

/** Whether the console signs a server's requests with OAuth tokens. */
export function usesOAuth(config: ServerConfig): boolean {
  if (config.transport === 'stdio') return false
  if (config.oauth) return true
  // Credentials of its own (an API key as a Bearer token): not an OAuth server.
  return !Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization')
}

/**
 * OAuth 2.1 sign-in per the MCP authorization spec, over the SDK's client auth: the pool's
 * providers, the interactive sign-in (loopback redirect, browser or test opener), sign-out
 * and each server's sign-in state. Tokens live in the keychain (memory for ad-hoc servers).
 */
export class OAuthService implements PoolAuth {
  /** Set by hosts where a person can sign in right away (the interactive CLI). */
  signIn?: PoolAuth['signIn']
  /** How the authorization URL reaches the person when a login names no opener. */
  defaultOpener: Opener | undefined
  private readonly memory = new Map<string, Map<string, string>>()
  private readonly discovery = new Map<string, ProviderOptions['discovery']>()
  private readonly flights = new Map<string, Flight>()
  private readonly failures = new Map<string, ErrorInfo>()
  /** Servers known to use OAuth in this run: signed in to, or their tokens found. */
  private readonly known = new Set<string>()
  private readonly fetch: FetchLike
  private readonly now: () => number

  constructor(private readonly deps: OAuthServiceDeps) {
    this.fetch = deps.fetch ?? ((url, init) => fetch(url, init))
    this.now = deps.now ?? Date.now
  }

  provider(
    config: ServerConfig,
    challenge: () => Challenge | undefined,
  ): OAuthClientProvider | undefined {
    if (!usesOAuth(config)) return undefined
    return new ConsoleOAuthProvider(this.providerOptions(config, config.url ?? ''), {
      kind: 'pool',
      challenge,
    })
  }

  /** Sign-in state of one server, or of every HTTP / SSE server of the registry. */
  async status(serverId?: string): Promise<OAuthStatus[]> {
    if (serverId !== undefined) return [await this.statusOf(this.configOf(serverId), true)]
    const servers = this.deps.servers().filter((config) => config.transport !== 'stdio')
    return Promise.all(servers.map((config) => this.statusOf(config, true)))
  }

  /**
   * The state a server card shows. Unlike {@link status} it reads no keychain for a server not
   * yet known to use OAuth: listing plain servers must not wait on a locked keychain.
   */
  async card(serverId: string): Promise<OAuthStatus> {
    return this.statusOf(this.configOf(serverId), false)
  }

  /**
   * Signs in to a server: resolves once signed in, or with state `error` (refused, timed out,
   * cancelled). A sign-in already running for the server is joined, not started twice.
   */
  login(serverId: string, options: LoginOptions = {}): Promise<OAuthStatus> {
    const config = this.configOf(serverId)
    if (config.transport === 'stdio') {
      throw new ConsoleError({
        code: 'invalid_argument',
        origin: 'local',
        server: serverId,
        message: `server ${serverId} runs over stdio: OAuth sign-in applies to HTTP and SSE servers`,
      })
    }
    const running = this.flights.get(serverId)
    if (running) return running.promise
    const flight: Flight = { abort: new AbortController(), promise: Promise.resolve(undefined!) }
    this.flights.set(serverId, flight)
    this.failures.delete(serverId)
    flight.promise = this.runLogin(config, flight, options).then(
      async () => {
        this.flights.delete(serverId)
        this.known.add(serverId)
        const status = await this.statusOf(config)
        this.changed(status)
        if (options.reconnect !== false) await this.deps.pool.reconnect(serverId).catch(() => {})
        return status
      },
      async (error: unknown) => {
        this.flights.delete(serverId)
        const info = this.deps.redactor.redact(failureInfo(serverId, error))
        this.failures.set(serverId, info)
        this.deps.logger?.warn('sign-in failed', { server: serverId, code: info.code })
        const status = await this.statusOf(config)
        this.changed(status)
        return status
      },
    )
    void this.statusOf(config).then((status) => this.changed(status))
    return flight.promise
  }

  /** Abandons a sign-in in progress (its login resolves as cancelled). */
  async cancel(serverId: string): Promise<OAuthStatus> {
    const config = this.configOf(serverId)
    const flight = this.flights.get(serverId)
    if (!flight) return this.statusOf(config)
    flight.abort.abort()
    return flight.promise
  }

  /** Deletes the server's tokens; the server needs signing in again. */
  async logout(serverId: string): Promise<OAuthStatus> {
    const config = this.configOf(serverId)
    this.flights.get(serverId)?.abort.abort()
    const vault = this.vault(config)
    await vault.clear('tokens')
    await vault.clear('verifier')
    this.failures.delete(serverId)
    if (this.deps.pool.status(serverId)) await this.deps.pool.reconnect(serverId).catch(() => {})
    const status = await this.statusOf(config)
    this.changed(status)
    return status
  }

  dispose(): void {
    for (const flight of this.flights.values()) flight.abort.abort()
  }

  // --- the sign-in ---------------------------------------------------------------------------

  private async runLogin(
    config: ServerConfig,
    flight: Flight,
    options: LoginOptions,
  ): Promise<void> {
    const signal = flight.abort.signal
    const resolved = await this.deps.resolve(config)
    const serverUrl = resolved.url ?? config.url ?? ''
    const request: SignInRequest =
      options.scope || options.resourceMetadataUrl
        ? options
        : await this.probe(config, serverUrl, resolved.headers)
    const vault = this.vault(config)
    // A sign-in replaces the tokens; a step-up must not be answered with a refresh.
    await vault.clear('tokens')
    const run = (provider: ConsoleOAuthProvider, authorizationCode?: string) =>
      auth(provider, {
        serverUrl,
        fetchFn: this.fetch,
        ...(request.scope ? { scope: request.scope } : {}),
        ...(request.resourceMetadataUrl
          ? { resourceMetadataUrl: new URL(request.resourceMetadataUrl) }
          : {}),
        ...(authorizationCode ? { authorizationCode } : {}),
      })
    const providerOptions = this.providerOptions(config, serverUrl)
    if (config.oauth?.grant === 'client_credentials') {
      const provider = new ConsoleOAuthProvider(providerOptions, {
        kind: 'interactive',
        redirectUrl: '',
        onRedirect: async () => undefined,
      })
      await run(provider)
      return
    }
    let provider: ConsoleOAuthProvider | undefined
    const listener = await LoopbackRedirect.open({
      serverId: config.id,
      ...(config.oauth?.redirectPort ? { port: config.oauth.redirectPort } : {}),
      expectedState: () => provider?.expectedState,
    })
    try {
      provider = new ConsoleOAuthProvider(providerOptions, {
        kind: 'interactive',
        redirectUrl: listener.url,
        onRedirect: (url) => this.redirect(config, flight, url, listener.url, options.opener),
      })
      if ((await run(provider)) === 'REDIRECT') {
        await run(provider, await listener.code(signal))
      }
    } finally {
      listener.close()
    }
  }

  /** Shows the authorization URL: announced to the renderer, then opened or fetched. */
  private async redirect(
    config: ServerConfig,
    flight: Flight,
    url: URL,
    redirectUrl: string,
    opener: Opener | undefined,
  ): Promise<void> {
    flight.authorizationUrl = url.href
    this.changed(await this.statusOf(config))
    if (this.deps.env.RAG_CONSOLE_OAUTH_OPENER === 'fetch') {
      return fetchOpener(url, redirectUrl, flight.abort.signal)
    }
    await (opener ?? this.defaultOpener)?.(url)
  }

  /** The challenge the server answers an unauthenticated request with (scope, metadata URL). */
  private async probe(
    config: ServerConfig,
    url: string,
    headers: Record<string, string>,
  ): Promise<SignInRequest> {
    const init: RequestInit =
      config.transport === 'sse'
        ? { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }
        : {
            method: 'POST',
            headers: {
              ...headers,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 0,
              method: 'initialize',
              params: {
                protocolVersion: LATEST_PROTOCOL_VERSION,
                capabilities: {},
                clientInfo: { name: 'rag-console', version: '0.1.0' },
              },
            }),
          }
    try {
      const response = await this.fetch(url, { ...init, signal: AbortSignal.timeout(15_000) })
      await response.body?.cancel().catch(() => {})
      if (response.status !== 401 && response.status !== 403) return {}
      const { scope, resourceMetadataUrl } = challengeParams(
        response.headers.get('www-authenticate') ?? undefined,
      )
      return {
        ...(scope ? { scope } : {}),
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      }
    } catch {
      // Unreachable now: discovery reports what fails.
      return {}
    }
  }

  // --- state -----------------------------------------------------------------------------------

  /** `thorough`: look for tokens even where nothing says the server uses OAuth yet. */
  private async statusOf(config: ServerConfig, thorough = false): Promise<OAuthStatus> {
    const vault = this.vault(config)
    const base: OAuthStatus = {
      serverId: config.id,
      ...(vault.profileId ? { profileId: vault.profileId } : {}),
      state: 'none',
    }
    const flight = this.flights.get(config.id)
    if (flight) {
      return {
        ...base,
        state: 'signing_in',
        ...(flight.authorizationUrl ? { authorizationUrl: flight.authorizationUrl } : {}),
      }
    }
    if (!usesOAuth(config)) return base
    const pool = this.deps.pool.status(config.id)
    const asked = pool?.state === 'action_required' && pool.signInRequired === true
    const known = config.oauth !== undefined || asked || this.known.has(config.id)
    if (!known && !thorough) return base
    let stored
    try {
      stored = await vault.tokens()
    } catch (error) {
      return known ? { ...base, state: 'error', error: toErrorInfo(error) } : base
    }
    if (stored) {
      const client =
        config.oauth?.clientId ?? (await vault.client().catch(() => undefined))?.client_id
      const scope = stored.tokens.scope
      const issuer = (stored.tokens as { issuer?: unknown }).issuer
      return {
        ...base,
        state: 'signed_in',
        account: accountOf(stored.tokens.id_token, client, vault.profileId),
        ...(scope ? { scopes: scope.split(' ').filter(Boolean) } : {}),
        ...(stored.expiresAt !== undefined ? { expiresAt: stored.expiresAt } : {}),
        ...(typeof issuer === 'string' ? { authorizationServer: issuer } : {}),
      }
    }
    const failure = this.failures.get(config.id)
    if (failure) return { ...base, state: 'error', error: failure }
    return known ? { ...base, state: 'sign_in_required' } : base
  }

  private changed(status: OAuthStatus): void {
    this.deps.events.emit('auth:changed', status)
  }

  private configOf(serverId: string): ServerConfig {
    const config = this.deps.config(serverId)
    if (!config) {
      throw new ConsoleError({
        code: 'not_found',
        origin: 'local',
        server: serverId,
        message: `no server "${serverId}" in the registry`,
      })
    }
    return config
  }

  private vault(config: ServerConfig): OAuthVault {
    const profileId = config.oauth?.perProfile ? this.deps.profileId() : undefined
    if (config.origin === AD_HOC_ORIGIN) {
      let values = this.memory.get(config.id)
      if (!values) this.memory.set(config.id, (values = new Map()))
      return new OAuthVault(memoryBackend(values), profileId, this.now)
    }
    return new OAuthVault(keychainBackend(this.deps.keychain, config.id), profileId, this.now)
  }

  /** A secret from the environment is redacted like any other from now on. */
  private registered(value: string | undefined): string | undefined {
    if (value) this.deps.redactor.add(value)
    return value
  }

  private providerOptions(config: ServerConfig, serverUrl: string): ProviderOptions {
    let discovery = this.discovery.get(config.id)
    if (!discovery) this.discovery.set(config.id, (discovery = {}))
    const [, kind, name] = CLIENT_SECRET_REF.exec(config.oauth?.clientSecret ?? '') ?? []
    return {
      serverId: config.id,
      serverUrl,
      commandLine: config.origin === AD_HOC_ORIGIN,
      config: config.oauth,
      vault: this.vault(config),
      discovery,
      fetch: this.fetch,
      now: this.now,
      known: () => this.known.has(config.id),
      onKnown: () => this.known.add(config.id),
      ...(name
        ? {
            clientSecret: async () =>
              kind === 'env'
                ? this.registered(this.deps.env[name])
                : ((await this.deps.keychain.get(config.id, name)) ?? undefined),
          }
        : {}),
    }
  }
}

function failureInfo(server: string, error: unknown): ErrorInfo {
  if (error instanceof ConsoleError) return error.toInfo()
  const network = networkFailure(error)
  if (network) {
    return {
      code: 'unreachable',
      origin: 'local',
      server,
      message: `sign-in to server ${server} failed: cannot reach the server or its authorization server: ${network}`,
    }
  }
  const text = error instanceof Error ? error.message : String(error)
  return {
    code: 'unauthorized',
    origin: 'server',
    server,
    message: `sign-in to server ${server} failed: ${text.split('\n')[0]!.slice(0, 500)}`,
  }
}
