import { z } from 'zod'
import type { ErrorInfo } from '../errors'

/**
 * OAuth 2.1 sign-in for HTTP / SSE servers (MCP authorization spec). Tokens, client secrets and
 * code verifiers stay in the main process's keychain: nothing here ever carries one.
 */

/** `none`: the server does not use OAuth (or has not asked for it yet). */
export type OAuthState = 'none' | 'sign_in_required' | 'signing_in' | 'signed_in' | 'error'

export interface OAuthStatus {
  serverId: string
  /** The acting profile the tokens belong to, for servers that are per-user. */
  profileId?: string
  state: OAuthState
  /** Who is signed in: the id token's email / name / sub when present, else client id + profile. */
  account?: string | undefined
  /** Scopes the access token was granted. */
  scopes?: string[]
  /** Epoch ms when the access token expires (it is refreshed before then when possible). */
  expiresAt?: number
  /** Issuer URL of the authorization server. */
  authorizationServer?: string
  error?: ErrorInfo
  /**
   * Only while `signing_in`: the URL the user opens to sign in. It carries `state` and the PKCE
   * `code_challenge`, never the verifier or a token.
   */
  authorizationUrl?: string
}

const serverId = z.string().min(1).max(256)

export const authRequests = {
  /** Sign-in state of one server, or of every HTTP / SSE server when `serverId` is absent. */
  'auth:status': z.object({ serverId: serverId.optional() }).optional(),
  /**
   * Runs the sign-in flow (browser + loopback redirect); resolves once signed in, or with state
   * `error` (denied, timed out after 5 minutes, cancelled).
   */
  'auth:login': z.object({ serverId }),
  /** Abandons a sign-in in progress; its `auth:login` resolves with state `error` (cancelled). */
  'auth:cancel': z.object({ serverId }),
  /** Deletes the server's tokens from the keychain; the server needs signing in again. */
  'auth:logout': z.object({ serverId }),
}

export interface AuthResults {
  'auth:status': OAuthStatus[]
  'auth:login': OAuthStatus
  'auth:cancel': OAuthStatus
  'auth:logout': OAuthStatus
}

export interface AuthEvents {
  /** A server's sign-in state changed (`signing_in` carries `authorizationUrl`). */
  'auth:changed': OAuthStatus
}
