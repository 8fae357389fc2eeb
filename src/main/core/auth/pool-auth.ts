import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { ServerConfig } from '../../../shared/config/schema'
import type { Challenge } from './provider'
import type { SignInRequest } from './sign-in-error'

/** What the pool needs from the console's OAuth support. */
export interface PoolAuth {
  /**
   * The provider a server's transport signs its requests with, or undefined when the server
   * cannot use OAuth (stdio, or credentials of its own in an `Authorization` header).
   */
  provider(
    config: ServerConfig,
    challenge: () => Challenge | undefined,
  ): OAuthClientProvider | undefined
  /**
   * Set where a person (or the test opener) can sign in right away, e.g. an interactive CLI:
   * the pool runs it when a connect or call needs a sign-in, then tries once more.
   */
  signIn?(serverId: string, request: SignInRequest): Promise<void>
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
 */
export function oauthAwareFetch(
  pool: FetchLike,
  endpoint: URL,
  onChallenge: (challenge: Challenge) => void,
  plain: FetchLike = (url, init) => fetch(url, init),
): FetchLike {
  return async (url, init) => {
    const target = url instanceof URL ? url : new URL(url)
    const mcp =
      (target.origin === endpoint.origin && target.pathname === endpoint.pathname) ||
      isJsonRpcBody(init?.body)
    if (!mcp) return plain(url, init)
    const response = await pool(url, init)
    if (response.status === 401 || response.status === 403) {
      onChallenge({
        status: response.status,
        header: response.headers.get('www-authenticate') ?? undefined,
      })
    }
    return response
  }
}
