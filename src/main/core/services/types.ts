import type { ServerConfig } from '#shared/config/schema'
import type {
  RateLimitInfo,
  ServerHealth,
  ServerInfo,
  ServerStatus,
  ToolInfo,
} from '#shared/model/server'
import type { Profile } from '#shared/model/user'
import type { Registry } from '../config/types'
import type { ServerSession } from '../pool/types'

/**
 * The part of the connection pool the services use (the pool's `ConnectionPool` satisfies it).
 * Services ask for a ready session per call and never see JSON-RPC.
 */
export interface SessionPool {
  /** A session once the server can take calls; fails with why it cannot (`ConsoleError`). */
  session(
    serverId: string,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<ServerSession>
  /** Connection state; throws `not_found` for a server the pool does not hold (yet). */
  status(serverId: string): ServerStatus
  /** Health of one server (a one-element array) or of all. */
  health(serverId?: string): ServerHealth[]
  /** How long a server's last successful call of `operation` took (ms), if known. */
  lastLatency?(serverId: string, operation: string): number | undefined
  /** A server's last `X-RateLimit-*` values, without building a health snapshot. */
  rateLimit(serverId: string): RateLimitInfo | undefined
  /**
   * Holds the servers' protocol logs while an operation runs (their entries are worked out
   * once it has answered); returns the release.
   */
  holdProtocolLogs?(): () => void
  /** The tools a server listed when it last connected; none before (and for an unknown id). */
  knownTools?(serverId: string): ToolInfo[]
  /** Tools listed at connect time (empty before the first connect). */
  tools(serverId: string): Promise<{
    tools: ToolInfo[]
    serverInfo?: ServerInfo
  }>
}

/** The running registry as the services read it. */
export interface RegistryReader {
  current(): Registry
  server(id: string): ServerConfig | undefined
}

/** Who the console acts as right now (the active profile). */
export type ActiveProfile = () => Profile
