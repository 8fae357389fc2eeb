import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import type { ServerConfig } from '#shared/config/schema'
import { CLIENT_SECRET_REF } from '#shared/config/validate'
import { ConsoleError, toErrorInfo, type ErrorInfo } from '#shared/errors'
import type { OAuthStatus } from '#shared/ipc/auth'
import type { ServerStatus } from '#shared/model/server'
import type { EventBus } from '../events'
import type { Logger } from '../log'
import type { KeychainStore } from '../secrets/keychain-store'
import { networkFailure } from '../pool/classify'
import type { Redactor, ResolvedConnection } from '../secrets/types'
import { accountOf } from './account'
import { LoopbackRedirect, loopbackPort } from './loopback'
import { fetchOpener, type Opener } from './opener'
import type { PoolAuth } from './pool-auth'
import { ConsoleOAuthProvider, type Challenge, type ProviderOptions } from './provider'
import { publicServerUrl } from './resource-url'
import {
  AD_HOC_ORIGIN,
  challengeParams,
  serverLabel,
  TRIED_ORIGIN,
  type SignInRequest,
} from './sign-in-error'
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
  /** The server's URL, resolved (once known). */
  endpoint?: string
  /** The first URL the sign-in could not reach (a network failure, no HTTP answer). */
  unreached?: URL
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
  signIn?: NonNullable<PoolAuth['signIn']>
  /** How the authorization URL reaches the person when a login names no opener. */
  defaultOpener: Opener | undefined
  private readonly memory = new Map<string, Map<string, string>>()
  private readonly discovery = new Map<string, ProviderOptions['discovery']>()
  private readonly renewals = new Map<string, ProviderOptions['renewal']>()
  /** Refreshes under way: a refresh token the server rotated must reach the vault. */
  private readonly refreshes = new Set<Promise<unknown>>()
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
    url: string,
    challenge: () => Challenge | undefined,
  ): OAuthClientProvider | undefined {
    if (!usesOAuth(config)) return undefined
    const options = this.providerOptions(config, publicServerUrl(config.url, url), this.fetch)
    return new ConsoleOAuthProvider(options, { kind: 'pool', challenge })
  }

  /** Whether the server's tokens are in the vault (read from the keychain, not kept). */
  async hasTokens(config: ServerConfig): Promise<boolean> {
    if (!usesOAuth(config)) return false
    const found =
      (await this.vault(config)
        .tokens()
        .catch(() => undefined)) !== undefined
    if (found) this.known.add(config.id)
    return found
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
        this.renewal(serverId).refused = false
        const status = await this.statusOf(config)
        this.changed(status)
        if (options.reconnect !== false) await this.deps.pool.reconnect(serverId).catch(() => {})
        return status
      },
      async (error: unknown) => {
        this.flights.delete(serverId)
        const info = this.deps.redactor.redact(failureInfo(config, error, flight))
        this.failures.set(serverId, info)
        this.deps.logger?.warn('sign-in failed', { server: serverId, code: info.code })
        // A failed sign-in is a failure, whatever tokens an earlier one left behind.
        const status: OAuthStatus = {
          ...(await this.statusOf(config)),
          state: 'error',
          error: info,
        }
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

  /**
   * Deletes the server's tokens and the client registered for it; the server needs signing in
   * again (which registers a client anew).
   */
  async logout(serverId: string): Promise<OAuthStatus> {
    const config = this.configOf(serverId)
    this.flights.get(serverId)?.abort.abort()
    await this.vault(config).clear('all')
    this.failures.delete(serverId)
    this.renewal(serverId).refused = false
    if (this.deps.pool.status(serverId)) await this.deps.pool.reconnect(serverId).catch(() => {})
    const status = await this.statusOf(config)
    this.changed(status)
    return status
  }

  statusChanged(serverId: string, status: ServerStatus): void {
    const config = this.deps.config(serverId)
    if (!config || status.state !== 'action_required' || status.signInRequired !== true) return
    void this.statusOf(config).then((oauth) => this.changed(oauth))
  }

  forget(serverId: string): void {
    this.flights.get(serverId)?.abort.abort()
    for (const map of [this.memory, this.discovery, this.renewals, this.failures]) {
      map.delete(serverId)
    }
    this.known.delete(serverId)
  }

  dispose(): void {
    for (const flight of this.flights.values()) flight.abort.abort()
  }

  /**
   * Resolves once no refresh is under way. A process that exits in the middle of one would lose
   * the new tokens while the authorization server has already retired the old refresh token.
   */
  async idle(): Promise<void> {
    while (this.refreshes.size > 0) await Promise.allSettled([...this.refreshes])
  }

  // --- the sign-in ---------------------------------------------------------------------------

  private async runLogin(
    config: ServerConfig,
    flight: Flight,
    options: LoginOptions,
  ): Promise<void> {
    const signal = flight.abort.signal
    const resolved = await this.deps.resolve(config)
    const endpoint = resolved.url ?? config.url ?? ''
    flight.endpoint = endpoint
    const fetchFn = this.tracked(flight)
    const request: SignInRequest =
      options.scope || options.resourceMetadataUrl
        ? options
        : await this.probe(config, endpoint, resolved.headers, fetchFn)
    const vault = this.vault(config)
    // A sign-in replaces the tokens; a step-up must not be answered with a refresh.
    await vault.clear('tokens')
    const serverUrl = publicServerUrl(config.url, endpoint)
    const run = (provider: ConsoleOAuthProvider, authorizationCode?: string) =>
      auth(provider, {
        serverUrl,
        fetchFn,
        ...(request.scope ? { scope: request.scope } : {}),
        ...(request.resourceMetadataUrl
          ? { resourceMetadataUrl: new URL(request.resourceMetadataUrl) }
          : {}),
        ...(authorizationCode ? { authorizationCode } : {}),
      })
    const providerOptions = this.providerOptions(config, serverUrl, fetchFn)
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
    const listener = await this.listen(config, vault, () => provider?.expectedState)
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

  /**
   * The loopback redirect of a sign-in: on `oauth.redirectPort` when set, else on the port the
   * stored client was registered with (when it is free), else on any free port. Authorization
   * servers that ignore RFC 8252's any-port rule refuse a redirect the client was not
   * registered with, so a client registered for another port is forgotten and registered anew.
   */
  private async listen(
    config: ServerConfig,
    vault: OAuthVault,
    expectedState: () => string | undefined,
  ): Promise<LoopbackRedirect> {
    const base = {
      serverId: config.id,
      label: serverLabel(config.id, config.origin),
      expectedState,
    }
    const fixed = config.oauth?.redirectPort
    if (fixed) return LoopbackRedirect.open({ ...base, port: fixed })
    const registered = config.oauth?.clientId ? undefined : await vault.client()
    const uris: unknown =
      registered && 'redirect_uris' in registered ? registered.redirect_uris : []
    const registeredFor = Array.isArray(uris) ? uris.filter((uri) => typeof uri === 'string') : []
    const port = registeredFor.map(loopbackPort).find((found) => found !== undefined)
    const listener =
      port === undefined
        ? await LoopbackRedirect.open(base)
        : await LoopbackRedirect.open({ ...base, port }).catch(() => LoopbackRedirect.open(base))
    if (registeredFor.length > 0 && !registeredFor.includes(listener.url)) {
      await vault.clear('client')
    }
    return listener
  }

  /** The service's fetch, noting the first URL the sign-in cannot reach. */
  private tracked(flight: Flight): FetchLike {
    return async (url, init) => {
      try {
        return await this.fetch(url, init)
      } catch (error) {
        if (networkFailure(error)) flight.unreached ??= new URL(url)
        throw error
      }
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
      return fetchOpener(url, redirectUrl, flight.abort.signal).catch((error: unknown) => {
        if (networkFailure(error)) flight.unreached ??= url
        throw error
      })
    }
    await (opener ?? this.defaultOpener)?.(url)
  }

  /** The challenge the server answers an unauthenticated request with (scope, metadata URL). */
  private async probe(
    config: ServerConfig,
    url: string,
    headers: Record<string, string>,
    fetchFn: FetchLike,
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
    let response: Response
    try {
      response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(15_000) })
    } catch (error) {
      // Nobody answers there: no sign-in can follow.
      if (networkFailure(error)) throw error
      // Too slow now: discovery reports what fails.
      return {}
    }
    await response.body?.cancel().catch(() => {})
    if (response.status !== 401 && response.status !== 403) return {}
    const { scope, resourceMetadataUrl } = challengeParams(
      response.headers.get('www-authenticate') ?? undefined,
    )
    return {
      ...(scope ? { scope } : {}),
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
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
    const failure = this.failures.get(config.id)
    const known = config.oauth !== undefined || asked || this.known.has(config.id) || !!failure
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
    if (failure) return { ...base, state: 'error', error: failure }
    // A client registered here for the server: it was signed in to before.
    const registered = known || (await vault.client().catch(() => undefined)) !== undefined
    return registered ? { ...base, state: 'sign_in_required' } : base
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
    // Servers given on the command line or tried in the Workbench are not saved: neither are
    // their tokens.
    if (config.origin === AD_HOC_ORIGIN || config.origin === TRIED_ORIGIN) {
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

  private renewal(serverId: string): ProviderOptions['renewal'] {
    let renewal = this.renewals.get(serverId)
    if (!renewal) this.renewals.set(serverId, (renewal = { refused: false }))
    return renewal
  }

  private providerOptions(
    config: ServerConfig,
    serverUrl: string,
    fetch: FetchLike,
  ): ProviderOptions {
    let discovery = this.discovery.get(config.id)
    if (!discovery) this.discovery.set(config.id, (discovery = {}))
    const [, kind, name] = CLIENT_SECRET_REF.exec(config.oauth?.clientSecret ?? '') ?? []
    return {
      serverId: config.id,
      serverUrl,
      ...(config.origin ? { origin: config.origin } : {}),
      config: config.oauth,
      vault: this.vault(config),
      discovery,
      renewal: this.renewal(config.id),
      fetch,
      now: this.now,
      known: () => this.known.has(config.id),
      onKnown: () => this.known.add(config.id),
      onRefresh: (refresh) => {
        this.refreshes.add(refresh)
        void refresh.finally(() => this.refreshes.delete(refresh))
      },
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

/** What a failed sign-in reports: the console's own errors as they are, else what failed. */
function failureInfo(config: ServerConfig, error: unknown, flight: Flight): ErrorInfo {
  if (error instanceof ConsoleError) return error.toInfo()
  const server = config.id
  const label = serverLabel(server, config.origin)
  const network = networkFailure(error)
  if (network) {
    const { unreached, endpoint } = flight
    const where = !unreached
      ? 'the server or its authorization server'
      : endpoint && unreached.origin === new URL(endpoint).origin
        ? `the server at ${unreached.origin}`
        : `its authorization server ${unreached.origin}`
    return {
      code: 'unreachable',
      origin: 'local',
      server,
      message: `sign-in to ${label} failed: cannot reach ${where} (${network}); check that it is running and that this machine can reach it, then sign in again`,
    }
  }
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0]!
  // The SDK's words when the server's metadata names another resource than the URL used.
  const named = /^Protected resource (\S+) does not match expected/.exec(text)?.[1]
  const next = !named
    ? ''
    : config.origin === AD_HOC_ORIGIN
      ? `; run the command with --url ${named}`
      : `; the server names itself ${named}: write that as its "url" in rag-mcp.json`
  return {
    code: 'unauthorized',
    origin: 'server',
    server,
    message: `sign-in to ${label} failed: ${text.slice(0, 500)}${next}`,
  }
}
