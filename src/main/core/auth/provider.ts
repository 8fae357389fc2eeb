import { randomBytes } from 'node:crypto'
import {
  auth,
  discoverAuthorizationServerMetadata,
  discoverOAuthServerInfo,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { OAuthConfig } from '#shared/config/schema'
import type { ConsoleError } from '#shared/errors'
import { challengeParams, signInRequiredError, type SignInRequest } from './sign-in-error'
import type { OAuthVault } from './vault'

/**
 * An access token this close to its expiry is refreshed before it is sent; one that lives
 * less than twice as long, once half its lifetime is over.
 */
export const REFRESH_MARGIN_MS = 60_000

function refreshMargin(tokens: OAuthTokens): number {
  const lifetime = tokens.expires_in
  return typeof lifetime === 'number' && lifetime > 0
    ? Math.min(REFRESH_MARGIN_MS, lifetime * 500)
    : REFRESH_MARGIN_MS
}

/** Registered for the pool's provider, which never redirects: the loopback path it would use. */
const POOL_REDIRECT = 'http://127.0.0.1/callback'

/** The last 401 / 403 the server answered an MCP request with. */
export interface Challenge {
  status: number
  /** `WWW-Authenticate`, as sent. */
  header: string | undefined
}

/** How a provider reaches the person: never (the pool), or through a browser and a redirect. */
export type ProviderMode =
  | {
      kind: 'pool'
      /** The last challenge on this connection (read when the SDK starts an auth run). */
      challenge: () => Challenge | undefined
    }
  | {
      kind: 'interactive'
      redirectUrl: string
      /** Shows the authorization URL to the person (or fetches it, in tests and CI). */
      onRedirect: (url: URL) => Promise<void>
    }

export interface ProviderOptions {
  serverId: string
  /** Where the server's entry comes from (`ServerConfig.origin`): worded accordingly. */
  origin?: string
  serverUrl: string
  config: OAuthConfig | undefined
  vault: OAuthVault
  /** The pre-registered client's secret, read from its keychain reference when needed. */
  clientSecret?: () => Promise<string | undefined>
  /** Discovery results shared by every provider of this server (they are not secret). */
  discovery: { state?: OAuthDiscoveryState | undefined }
  /**
   * Set when the authorization server refused to renew the server's sign-in (its refresh token
   * was revoked or expired), until the next sign-in: the person is asked to sign in again.
   */
  renewal: { refused: boolean }
  fetch: FetchLike
  /** Known to use OAuth in this run (signed in, or tokens found): its tokens are worth reading. */
  known?: () => boolean
  /** Tells the service the server uses OAuth (its tokens were found). */
  onKnown?: () => void
  /** A refresh under way: the console waits for it before it exits (its result is the token). */
  onRefresh?: (refresh: Promise<unknown>) => void
  now?: () => number
}

/**
 * The console's `OAuthClientProvider` for the MCP SDK: discovery, registration (pre-registered
 * client, Client ID Metadata Document or dynamic registration), PKCE, the resource indicator
 * and scope selection are the SDK's; this class keeps what they produce in the keychain, adds
 * the configured overrides, refreshes tokens shortly before they expire, and decides what a
 * sign-in means: the pool's provider never opens anything (it fails with "sign-in required"),
 * an interactive one sends the person to the authorization URL.
 */
export class ConsoleOAuthProvider implements OAuthClientProvider {
  private lastState: string | undefined
  private refreshing = false
  /** The refresh token of the tokens last handed out, to tell a refused refresh from a rotated one. */
  private refreshToken: string | undefined
  private readonly now: () => number
  /** The Client ID Metadata Document's URL, when the entry names one (absent otherwise). */
  declare readonly clientMetadataUrl?: string

  constructor(
    private readonly options: ProviderOptions,
    private readonly mode: ProviderMode,
  ) {
    this.now = options.now ?? Date.now
    const metadataUrl = options.config?.clientMetadataUrl
    if (metadataUrl !== undefined) this.clientMetadataUrl = metadataUrl
  }

  /** The `state` of the last authorization URL, for the redirect listener to check. */
  get expectedState(): string | undefined {
    return this.lastState
  }

  private get clientCredentials(): boolean {
    return this.options.config?.grant === 'client_credentials'
  }

  get redirectUrl(): string | undefined {
    if (this.clientCredentials) return undefined
    return this.mode.kind === 'interactive' ? this.mode.redirectUrl : POOL_REDIRECT
  }

  get clientMetadata(): OAuthClientMetadata {
    const { config } = this.options
    const redirect = this.redirectUrl
    return {
      client_name: 'RAG Console',
      redirect_uris: redirect ? [redirect] : [],
      grant_types: this.clientCredentials
        ? ['client_credentials']
        : ['authorization_code', 'refresh_token'],
      response_types: this.clientCredentials ? [] : ['code'],
      token_endpoint_auth_method: config?.clientSecret
        ? (config.tokenEndpointAuthMethod ?? 'client_secret_basic')
        : 'none',
      ...(config?.scopes?.length ? { scope: config.scopes.join(' ') } : {}),
    }
  }

  state(): string {
    this.lastState = randomBytes(32).toString('base64url')
    return this.lastState
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { config } = this.options
    if (config?.clientId) {
      const clientSecret = await this.options.clientSecret?.()
      return {
        client_id: config.clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        ...(config.tokenEndpointAuthMethod
          ? { token_endpoint_auth_method: config.tokenEndpointAuthMethod }
          : {}),
      }
    }
    return this.options.vault.client()
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    // A pre-registered client lives in rag-mcp.json and the keychain reference, not here.
    if (this.options.config?.clientId) return
    // The redirect it was registered with decides whether the next sign-in can reuse it.
    const asked = { redirect_uris: this.clientMetadata.redirect_uris }
    await this.options.vault.saveClient({ ...asked, ...client })
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // Until a server shows it uses OAuth, its requests go out as configured: no keychain read
    // (which would fail every request on a machine without a keychain).
    if (this.mode.kind === 'pool' && !this.knownOAuth(this.mode)) return undefined
    const stored = await this.options.vault.tokens()
    this.refreshToken = stored?.tokens.refresh_token
    if (!stored) return undefined
    this.options.onKnown?.()
    const soon =
      stored.expiresAt !== undefined && stored.expiresAt - this.now() < refreshMargin(stored.tokens)
    if (!soon || this.refreshing || this.mode.kind !== 'pool') return stored.tokens
    if (!stored.tokens.refresh_token && !this.clientCredentials) return stored.tokens
    this.refreshing = true
    const refresh = auth(this, { serverUrl: this.options.serverUrl, fetchFn: this.options.fetch })
      // On failure the request goes out with the old token; its 401 starts the SDK's recovery.
      .catch(() => undefined)
      .finally(() => (this.refreshing = false))
    this.options.onRefresh?.(refresh)
    await refresh
    return (await this.options.vault.tokens())?.tokens
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.options.vault.saveTokens(tokens)
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.mode.kind === 'interactive') return this.mode.onRedirect(url)
    const scope = url.searchParams.get('scope')
    throw this.signInRequired(scope ? { scope } : {})
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    // The pool never completes an authorization: its verifier would only overwrite the one of
    // a sign-in running in another process.
    if (this.mode.kind === 'pool') return
    await this.options.vault.saveVerifier(verifier)
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.options.vault.verifier()
    if (!verifier) throw new Error('no sign-in is in progress for this server')
    return verifier
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'all' || scope === 'discovery') this.options.discovery.state = undefined
    if (scope === 'tokens' && this.mode.kind === 'pool') {
      // The authorization server refused the refresh token this provider read. When another
      // process has renewed the sign-in meanwhile (the stored refresh token is another one),
      // its tokens stay: they are the good ones.
      const stored = await this.options.vault.tokens()
      if (stored && stored.tokens.refresh_token !== this.refreshToken) return
      this.options.renewal.refused = true
    }
    await this.options.vault.clear(scope)
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.clientCredentials) return undefined
    const params = new URLSearchParams({ grant_type: 'client_credentials' })
    const wanted = scope ?? this.options.config?.scopes?.join(' ')
    if (wanted) params.set('scope', wanted)
    return params
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.options.discovery.state = this.withOverrides(state)
  }

  /**
   * The first thing the SDK asks in an auth run. The pool's provider decides here whether the
   * run can succeed without a person: with no token to refresh (or a step-up asked for more),
   * it fails with "sign-in required"; for a 401 that is no OAuth challenge, with the plain
   * refusal.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.mode.kind === 'pool' && !this.refreshing) await this.mustBeAbleToSignIn(this.mode)
    if (this.options.discovery.state) return this.options.discovery.state
    const { config } = this.options
    const overrides =
      config?.authorizationServerUrl ??
      config?.tokenEndpoint ??
      config?.authorizationEndpoint ??
      config?.registrationEndpoint
    if (!overrides) return undefined
    const info = await discoverOAuthServerInfo(this.options.serverUrl, {
      fetchFn: this.options.fetch,
    }).catch(() => undefined)
    // A configured authorization server is asked for its own metadata: the one the resource
    // names may be another (or none).
    const configured = config?.authorizationServerUrl
    const metadata = configured
      ? await discoverAuthorizationServerMetadata(configured, { fetchFn: this.options.fetch })
      : info?.authorizationServerMetadata
    await this.saveDiscoveryState({
      authorizationServerUrl: configured ?? info?.authorizationServerUrl ?? overrides,
      ...(info?.resourceMetadata ? { resourceMetadata: info.resourceMetadata } : {}),
      ...(metadata ? { authorizationServerMetadata: metadata } : {}),
    })
    return this.options.discovery.state
  }

  private knownOAuth(mode: Extract<ProviderMode, { kind: 'pool' }>): boolean {
    if (this.options.config !== undefined || this.options.known?.()) return true
    return /^\s*bearer\b/i.test(mode.challenge()?.header ?? '')
  }

  private signInRequired(request: SignInRequest): ConsoleError {
    return signInRequiredError(this.options.serverId, request, {
      ...(this.options.origin ? { origin: this.options.origin } : {}),
      again: this.options.renewal.refused,
    })
  }

  private async mustBeAbleToSignIn(mode: Extract<ProviderMode, { kind: 'pool' }>): Promise<void> {
    const challenge = mode.challenge()
    const { error, ...request } = challengeParams(challenge?.header)
    if (challenge?.status === 403 && error === 'insufficient_scope') {
      throw this.signInRequired(request)
    }
    // Not an OAuth server: the 401 stands as the refusal it is.
    if (!this.knownOAuth(mode))
      throw new Error(`HTTP ${challenge?.status ?? 401} without an OAuth challenge`)
    if (this.clientCredentials || (await this.options.vault.tokens())) return
    throw this.signInRequired(request)
  }

  private withOverrides(state: OAuthDiscoveryState): OAuthDiscoveryState {
    const config = this.options.config
    const metadata = state.authorizationServerMetadata
    if (!config || !metadata) return state
    return {
      ...state,
      authorizationServerMetadata: {
        ...metadata,
        ...(config.authorizationEndpoint
          ? { authorization_endpoint: config.authorizationEndpoint }
          : {}),
        ...(config.tokenEndpoint ? { token_endpoint: config.tokenEndpoint } : {}),
        ...(config.registrationEndpoint
          ? { registration_endpoint: config.registrationEndpoint }
          : {}),
      },
    }
  }
}
