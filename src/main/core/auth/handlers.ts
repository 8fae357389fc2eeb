import type { ChannelHandlers } from '#shared/ipc/contract'
import type { OAuthService } from './oauth-service'

type AuthHandlers = Pick<
  ChannelHandlers,
  'auth:status' | 'auth:login' | 'auth:cancel' | 'auth:logout'
>

/**
 * The `auth:*` channels. The desktop opens the authorization URL in the system browser; the
 * browser host has no such hook: its page opens the URL it receives with `auth:changed`.
 */
export function authHandlers(
  auth: OAuthService,
  opener: ((url: string) => Promise<void>) | undefined,
): AuthHandlers {
  return {
    'auth:status': (request) => auth.status(request?.serverId),
    'auth:login': ({ serverId }) =>
      auth.login(serverId, opener ? { opener: (url) => opener(url.href) } : {}),
    'auth:cancel': ({ serverId }) => auth.cancel(serverId),
    'auth:logout': ({ serverId }) => auth.logout(serverId),
  }
}
