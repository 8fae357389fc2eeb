import { maskPlaintextSecrets } from '#shared/config/plaintext-secrets'
import type { ServerConfig } from '#shared/config/schema'
import type { OAuthStatus } from '#shared/ipc/auth'
import type { SecretRefStatus } from '#shared/ipc/secrets'
import type { DialectInfo, ServerStatus, ServerSummary, ToolInfo } from '#shared/model/server'
import { detect } from '../dialects/registry'
import { suggestSearchTools } from '../dialects/search-suggestion'
import type { ActiveProfile, RegistryReader, SessionPool } from './types'
import { isVisibleTo } from './visibility'

/** The secrets feature as the server list needs it: which references are set. */
export interface SecretStatusSource {
  statusOf(
    config: ServerConfig,
    skipKeychain?: boolean,
  ): Promise<{ refs: SecretRefStatus[]; error?: unknown }>
}

/** The OAuth feature as the server list needs it: each server's sign-in state. */
export interface OAuthStatusSource {
  card(serverId: string): Promise<OAuthStatus>
}

export interface ServersServiceDeps {
  registry: RegistryReader
  pool: SessionPool
  secrets: SecretStatusSource
  profile: ActiveProfile
  oauth?: OAuthStatusSource
  now?: () => number
}

/**
 * Every configured server as the active profile sees it: config (plaintext-looking secrets
 * masked), connection status, dialect (detected from its tools unless the config names one),
 * which keychain secrets it references and whether they are set, latency and rate limit from
 * the pool's health, and whether the profile's groups may see it.
 */
export class ServersService {
  constructor(private readonly deps: ServersServiceDeps) {}

  async list(): Promise<ServerSummary[]> {
    const user = this.deps.profile()
    const out: ServerSummary[] = []
    // One keychain failure (locked, no Secret Service) is enough: the rest are reported unknown.
    let keychainDown = false
    for (const config of this.deps.registry.current().servers) {
      const { refs, error } = await this.deps.secrets.statusOf(config, keychainDown)
      keychainDown ||= error !== undefined
      const oauth = keychainDown ? undefined : await this.oauth(config)
      out.push({
        ...(await this.describe(config)),
        visible: isVisibleTo(config.groups, user),
        secrets: refs
          .filter((ref) => ref.kind === 'keychain')
          .map((ref) => ({ name: ref.name, present: ref.present })),
        ...(oauth ? { oauth } : {}),
      })
    }
    return out
  }

  /** Sign-in state of an HTTP / SSE server (its tokens are read from the keychain). */
  private async oauth(config: ServerConfig): Promise<OAuthStatus | undefined> {
    if (config.transport === 'stdio' || !this.deps.oauth) return undefined
    return this.deps.oauth.card(config.id).catch(() => undefined)
  }

  private async describe(
    config: ServerConfig,
  ): Promise<Omit<ServerSummary, 'visible' | 'secrets'>> {
    const masked = maskPlaintextSecrets(config)
    const { tools, serverInfo } = await this.tools(config.id)
    const status = this.status(config)
    const summary: Omit<ServerSummary, 'visible' | 'secrets'> = {
      id: config.id,
      enabled: config.enabled,
      transport: config.transport,
      groups: [...config.groups],
      ui: { ...config.ui },
      origin: config.origin,
      dialect: dialectInfo(config, tools, status),
      status,
      tools,
    }
    if (config.description !== undefined) summary.description = config.description
    if (masked.url !== undefined) summary.url = masked.url
    if (config.command !== undefined) summary.command = config.command
    if (masked.args && masked.args.length > 0) summary.args = masked.args
    if (serverInfo) summary.serverInfo = serverInfo
    if (summary.dialect.id === null) {
      const searchable = suggestSearchTools(tools)
      if (searchable.length > 0) summary.searchable = searchable
    }
    const health = this.health(config.id)
    if (health) {
      if (health.overall.latency.count > 0) {
        summary.latency = { p50: health.overall.latency.p50, p95: health.overall.latency.p95 }
      }
      if (health.rateLimit) summary.rateLimit = health.rateLimit
      if (health.lastCheckAt !== undefined) summary.lastCheckAt = health.lastCheckAt
    }
    return summary
  }

  private status(config: ServerConfig): ServerStatus {
    try {
      return this.deps.pool.status(config.id)
    } catch {
      // Not in the pool yet (a reload is being applied): say what it is about to do.
      const since = (this.deps.now ?? Date.now)()
      return config.enabled
        ? { state: 'connecting', since, attempt: 1 }
        : { state: 'disabled', since }
    }
  }

  /** A server's dialect as its card shows it: detected from its last tools, else configured. */
  async dialect(config: ServerConfig): Promise<DialectInfo> {
    return dialectInfo(config, (await this.tools(config.id)).tools, this.status(config))
  }

  private async tools(
    id: string,
  ): Promise<{ tools: ToolInfo[]; serverInfo?: ServerSummary['serverInfo'] }> {
    try {
      return await this.deps.pool.tools(id)
    } catch {
      return { tools: [] }
    }
  }

  private health(id: string) {
    try {
      return this.deps.pool.health(id)[0]
    } catch {
      return undefined
    }
  }
}

/**
 * The dialect from the tools, or, before the server ever listed any (not connected yet), what
 * the config says without judging tools that are not known.
 */
export function dialectInfo(
  config: ServerConfig,
  tools: ToolInfo[],
  status: ServerStatus,
): DialectInfo {
  const listed = tools.length > 0 || status.state === 'ready' || status.state === 'degraded'
  if (listed) return detect(tools, config.dialect)
  const setting = config.dialect
  if (setting === 'auto') {
    return {
      id: null,
      source: 'detected',
      reason: 'not connected yet: the dialect is detected from its tools once it connects',
    }
  }
  return {
    id: typeof setting === 'string' ? setting : 'generic',
    source: 'config',
    reason: 'set in config; its tools are checked once it connects',
  }
}
