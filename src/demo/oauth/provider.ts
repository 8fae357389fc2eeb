import { randomBytes } from 'node:crypto'
import type { Response } from 'express'
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js'
import {
  InvalidGrantError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js'
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import { OAUTH_DEMO_CLIENT } from '../keys'

// Named through the provider interface: the SDK's `shared/` path is off limits to demo code.
type OAuthClientInformationFull = Parameters<OAuthServerProvider['authorize']>[0]
type OAuthTokens = Awaited<ReturnType<OAuthServerProvider['exchangeRefreshToken']>>
type RevocationRequest = Parameters<NonNullable<OAuthServerProvider['revokeToken']>>[1]

/** The scope every token gets; step-up scopes come on top. */
export const BASE_SCOPE = 'rag:read'

export interface DemoOAuthOptions {
  /** Lifetime of access tokens (short values exercise refresh). */
  tokenTtlSeconds: number
  /** Approve every authorization at once as this user (no consent page). */
  approveAs?: string | undefined
  now?: () => number
}

interface Grant {
  clientId: string
  user: string
  scopes: string[]
  resource?: string | undefined
}

interface PendingCode extends Grant {
  challenge: string
  redirectUri: string
  expiresAt: number
}

interface PendingConsent {
  client: OAuthClientInformationFull
  params: AuthorizationParams
}

const token = (prefix: string): string => `${prefix}_${randomBytes(24).toString('base64url')}`

/** A display-only id token (`alg: none`): tells the console who signed in. */
function idToken(user: string, clientId: string): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: user, email: user.includes('@') ? user : `${user}@example.com`, aud: clientId })}.`
}

/**
 * An in-memory authorization server for the demo: dynamic client registration, one
 * pre-registered confidential client, authorization code + PKCE (checked by the SDK), refresh
 * tokens that rotate, token revocation (RFC 7009, `/revoke`), and a consent step (auto-approved
 * for `login_hint` or `--approve-as`).
 */
export class DemoOAuthProvider implements OAuthServerProvider {
  private readonly clients = new Map<string, OAuthClientInformationFull>()
  private readonly codes = new Map<string, PendingCode>()
  private readonly consents = new Map<string, PendingConsent>()
  private readonly accessTokens = new Map<string, Grant & { expiresAt: number }>()
  private readonly refreshTokens = new Map<string, Grant>()
  private readonly now: () => number

  constructor(private readonly options: DemoOAuthOptions) {
    this.now = options.now ?? Date.now
    this.clients.set(OAUTH_DEMO_CLIENT.clientId, {
      client_id: OAUTH_DEMO_CLIENT.clientId,
      client_secret: OAUTH_DEMO_CLIENT.clientSecret,
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code', 'refresh_token'],
    })
  }

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (clientId) => this.clients.get(clientId),
      registerClient: (client) => {
        const full = {
          ...client,
          client_id: token('client'),
          client_id_issued_at: Math.floor(this.now() / 1000),
        }
        this.clients.set(full.client_id, full)
        return full
      },
    }
  }

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> {
    const hint = res.req.query.login_hint
    const user = this.options.approveAs ?? (typeof hint === 'string' && hint ? hint : undefined)
    if (user) return res.redirect(302, this.approve(client, params, user))
    const consent = token('consent')
    this.consents.set(consent, { client, params })
    res
      .status(200)
      .type('html')
      .send(consentPage(client, params, consent))
  }

  /** The user pressed Approve on the consent page: the redirect back to the client. */
  consent(id: string, user: string): string | undefined {
    const pending = this.consents.get(id)
    if (!pending) return undefined
    this.consents.delete(id)
    return this.approve(pending.client, pending.params, user)
  }

  private approve(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    user: string,
  ): string {
    const code = token('code')
    this.codes.set(code, {
      clientId: client.client_id,
      user,
      scopes: params.scopes?.length ? params.scopes : [BASE_SCOPE],
      resource: params.resource?.href,
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
      expiresAt: this.now() + 60_000,
    })
    const target = new URL(params.redirectUri)
    target.searchParams.set('code', code)
    if (params.state !== undefined) target.searchParams.set('state', params.state)
    return target.href
  }

  private code(client: OAuthClientInformationFull, code: string): PendingCode {
    const pending = this.codes.get(code)
    if (!pending || pending.clientId !== client.client_id || pending.expiresAt < this.now()) {
      throw new InvalidGrantError('Unknown or expired authorization code')
    }
    return pending
  }

  async challengeForAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
  ): Promise<string> {
    return this.code(client, code).challenge
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
  ): Promise<OAuthTokens> {
    const pending = this.code(client, code)
    this.codes.delete(code)
    if (redirectUri !== undefined && redirectUri !== pending.redirectUri) {
      throw new InvalidGrantError('redirect_uri differs from the authorization request')
    }
    return this.issue(pending, true)
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
  ): Promise<OAuthTokens> {
    const grant = this.refreshTokens.get(refreshToken)
    if (!grant || grant.clientId !== client.client_id) {
      throw new InvalidGrantError('Unknown refresh token')
    }
    if (scopes?.some((scope) => !grant.scopes.includes(scope))) {
      throw new InvalidGrantError('A refresh cannot widen the granted scopes')
    }
    this.refreshTokens.delete(refreshToken)
    return this.issue({ ...grant, scopes: scopes?.length ? scopes : grant.scopes }, false)
  }

  private issue(grant: Grant, withIdToken: boolean): OAuthTokens {
    const access = token('at')
    const refresh = token('rt')
    const grantOnly: Grant = {
      clientId: grant.clientId,
      user: grant.user,
      scopes: grant.scopes,
      resource: grant.resource,
    }
    this.accessTokens.set(access, {
      ...grantOnly,
      expiresAt: this.now() + this.options.tokenTtlSeconds * 1000,
    })
    this.refreshTokens.set(refresh, grantOnly)
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: this.options.tokenTtlSeconds,
      refresh_token: refresh,
      scope: grant.scopes.join(' '),
      ...(withIdToken ? { id_token: idToken(grant.user, grant.clientId) } : {}),
    }
  }

  /** RFC 7009: a client's access or refresh token stops working (another client's is ignored). */
  async revokeToken(client: OAuthClientInformationFull, request: RevocationRequest): Promise<void> {
    for (const store of [this.refreshTokens, this.accessTokens]) {
      if (store.get(request.token)?.clientId === client.client_id) store.delete(request.token)
    }
  }

  /** The client's registered redirect URIs, for the exact-match check (`--exact-redirect-uris`). */
  redirectUris(clientId: string): string[] | undefined {
    return this.clients.get(clientId)?.redirect_uris
  }

  async verifyAccessToken(accessToken: string): Promise<AuthInfo> {
    const grant = this.accessTokens.get(accessToken)
    if (!grant) throw new InvalidTokenError('Unknown access token')
    return {
      token: accessToken,
      clientId: grant.clientId,
      scopes: grant.scopes,
      expiresAt: Math.floor(grant.expiresAt / 1000),
      ...(grant.resource ? { resource: new URL(grant.resource) } : {}),
      extra: { user: grant.user },
    }
  }
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function consentPage(
  client: OAuthClientInformationFull,
  params: AuthorizationParams,
  consent: string,
): string {
  const name = client.client_name ?? client.client_id
  const scopes = params.scopes?.length ? params.scopes.join(' ') : BASE_SCOPE
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in — RAG demo</title></head>
<body style="font-family: sans-serif; max-width: 28rem; margin: 3rem auto">
<h1>Sign in to the RAG demo</h1>
<p><strong>${escape(name)}</strong> asks for access (${escape(scopes)}).</p>
<form method="post" action="/consent">
<input type="hidden" name="consent" value="${escape(consent)}">
<label>User <input name="user" value="alice" required></label>
<button type="submit">Approve</button>
</form></body></html>`
}
