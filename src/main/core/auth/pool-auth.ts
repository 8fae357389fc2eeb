import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { ServerConfig } from '#shared/config/schema'
import type { ServerStatus } from '#shared/model/server'
import type { Challenge } from './provider'
import type { SignInRequest } from './sign-in-error'

/** What the pool needs from the console's OAuth support. */
export interface PoolAuth {
  /**
   * The provider a server's transport signs its requests with, or undefined when the server
   * cannot use OAuth (stdio, or credentials of its own in an `Authorization` header). `url` is
   * the server's URL with its references resolved (the one requests go to).
   */
  provider(
    config: ServerConfig,
    url: string,
    challenge: () => Challenge | undefined,
  ): OAuthClientProvider | undefined
  /**
   * Set where a person (or the test opener) can sign in right away, e.g. an interactive CLI:
   * the pool runs it when a connect or call needs a sign-in, then tries once more.
   */
  signIn?(serverId: string, request: SignInRequest): Promise<void>
  /**
   * Whether tokens for the server are stored now (another process, or a sign-in since the pool
   * asked for one): a server waiting for a sign-in connects again when they are.
   */
  hasTokens?(config: ServerConfig): Promise<boolean>
  /** The server is gone for good (a tried server closed): what memory held for it goes too. */
  forget?(serverId: string): void
  /**
   * A server's new status, from a pool whose status changes reach no window (the tried
   * servers'): a sign-in it now waits for is announced as `auth:changed`.
   */
  statusChanged?(serverId: string, status: ServerStatus): void
}

/** Sign-ins one connect or call may run before it gives up (a step-up may need a second). */
export const MAX_SIGN_INS = 2

function isJsonRpcBody(body: unknown): boolean {
  if (typeof body !== 'string') return false
  try {
    const message = JSON.parse(body) as unknown
    const first = Array.isArray(message) ? (message[0] as unknown) : message
    return typeof first === 'object' && first !== null && 'jsonrpc' in first
  } catch {
    return false
  }
}

/**
 * Sends the MCP traffic of a server through the pool's layers and records its 401 / 403
 * challenges; everything else the SDK's auth code fetches (metadata, registration, tokens)
 * goes out plainly, without the server's configured headers, which are not the
 * authorization server's business.
 *
 * A 401 to a request that did not carry the stored access token (the server was not yet known
 * to use OAuth, or another process signed in since) is sent once more with it: the SDK's own
 * answer to a 401 would refresh the token, or give up on a token without a refresh token.
 */
export function oauthAwareFetch(
  pool: FetchLike,
  endpoint: URL,
  provider: Pick<OAuthClientProvider, 'tokens'>,
  onChallenge: (challenge: Challenge) => void,
  plain: FetchLike = (url, init) => fetch(url, init),
): FetchLike {
  const send = async (url: string | URL, init: RequestInit | undefined): Promise<Response> => {
    const response = await pool(url, init)
    if (response.status === 401 || response.status === 403) {
      onChallenge({
        status: response.status,
        header: response.headers.get('www-authenticate') ?? undefined,
      })
    }
    return response
  }
  return async (url, init) => {
    const target = url instanceof URL ? url : new URL(url)
    const mcp =
      (target.origin === endpoint.origin && target.pathname === endpoint.pathname) ||
      isJsonRpcBody(init?.body)
    if (!mcp) return plain(url, init)
    const response = await send(url, init)
    if (response.status !== 401) return response
    // Read now that the challenge is recorded: the provider knows the server uses OAuth.
    const stored = (await Promise.resolve(provider.tokens()).catch(() => undefined))?.access_token
    const headers = new Headers(init?.headers)
    if (!stored || headers.get('authorization') === `Bearer ${stored}`) return response
    await response.body?.cancel().catch(() => {})
    headers.set('authorization', `Bearer ${stored}`)
    return send(url, { ...init, headers })
  }
}
