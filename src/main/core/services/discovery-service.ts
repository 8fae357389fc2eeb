import type { ServerConfig } from '#shared/config/schema'
import type { ErrorInfo } from '#shared/errors'
import type { DiscoveryResult, ServerDiscovery } from '#shared/model/operations'
import type { Resource } from '#shared/model/rag'
import type { Profile } from '#shared/model/user'
import type { EventBus } from '../events'
import type { SettingsStore } from './settings'
import type { ServerCalls } from './server-calls'
import { mergeSources, type SourceMerge } from './sources'
import { actingUser, targetError, visibleServers } from './targets'
import { detect } from '../dialects/registry'
import type { ActiveProfile, RegistryReader, SessionPool } from './types'

export interface DiscoveryServiceDeps {
  registry: RegistryReader
  calls: ServerCalls
  settings: Pick<SettingsStore, 'selection'>
  profile: ActiveProfile
  events: EventBus
  /** Whether a server can be searched, where known (see {@link searchability}). */
  searchable?(config: ServerConfig): boolean | undefined
  /**
   * Names the server's current connection (its state and since when): an answer from before a
   * reconnect is not reused. Undefined for a server the pool does not know.
   */
  connection?(serverId: string): string | undefined
}

/**
 * How long an automatic discovery (page load, profile switch) reuses what the last one found
 * instead of asking every server again. A person's discovery (Rediscover, `rag-console
 * discover`) always asks.
 */
export const DISCOVERY_CACHE_MS = 5 * 60_000

/**
 * Whether a server can be searched: yes when its config names a family or a mapping; else as
 * the tools it listed say (a family detected, or none: not a search source until it is
 * mapped); undefined before it has connected.
 */
export function searchability(
  config: ServerConfig,
  pool: Pick<SessionPool, 'status' | 'knownTools'>,
): boolean | undefined {
  if (config.dialect !== 'auto') return true
  const tools = pool.knownTools?.(config.id) ?? []
  let state: string | undefined
  try {
    state = pool.status(config.id).state
  } catch {
    return undefined
  }
  if (tools.length === 0 && state !== 'ready' && state !== 'degraded') return undefined
  return detect(tools, config.dialect).id !== null
}

/** A server's connection as the pool reports it: its state and since when. */
export function connectionOf(pool: Pick<SessionPool, 'status'>, id: string): string | undefined {
  try {
    const status = pool.status(id)
    return `${status.state}@${status.since}`
  } catch {
    return undefined
  }
}

interface Discovered {
  /** Authoritative runtime list, or null when the family has none. */
  resources: Resource[] | null
  /** When the server was asked (epoch ms), how long it took, and on which connection. */
  askedAt: number
  latencyMs: number
  connection: string | undefined
  /** The registry entry it was asked with (as JSON): a changed entry is asked again. */
  entry: string
}

/**
 * Data sources per server for the acting profile. Runs every visible enabled server's
 * discovery in parallel; runtime discovery decides which sources exist, the config supplies
 * names, order and defaults (see {@link mergeSources}), the profile's remembered toggles
 * (settings.json) decide the selection. The last discovery per profile and server is kept so a
 * search without an explicit selection knows the sources; sources that disappear are returned
 * as `missing` and announced once as `discovery:missing`.
 */
export class DiscoveryService {
  /** server → acting-user key → what its last discovery found. */
  private readonly known = new Map<string, Map<string, Discovered>>()
  /** server → acting-user key → the missing sources last announced. */
  private readonly announced = new Map<string, Map<string, string>>()

  /** server → its last {@link sourcesOf} answer and what it was merged from. */
  private readonly merged = new Map<
    string,
    { config: ServerConfig; discovered: Resource[] | null; inputs: string; merge: SourceMerge }
  >()

  constructor(private readonly deps: DiscoveryServiceDeps) {}

  /**
   * `timeoutMs`: each server's budget for this run (default its own `timeoutMs`); `automatic`:
   * the console started it by itself (page load, profile switch), as its audit lines say;
   * `profile`: as whom (default the active profile).
   */
  async run(
    request: {
      servers?: string[] | undefined
      timeoutMs?: number | undefined
      automatic?: boolean | undefined
      profile?: Profile | undefined
    } = {},
  ): Promise<DiscoveryResult> {
    const profile = request.profile ?? this.deps.profile()
    const user = actingUser(profile)
    const ids =
      request.servers ??
      visibleServers(this.deps.registry.current().servers, user).map((config) => config.id)
    const servers = await this.deps.calls.operation('discover', () =>
      Promise.all(
        ids.map((id) => this.discoverOne(id, this.deps.registry.server(id), profile, request)),
      ),
    )
    return { user, servers }
  }

  /**
   * The sources of a server for a profile from what is known without asking it: the last
   * discovery in this session, else the config and the remembered toggles.
   */
  sourcesOf(config: ServerConfig, profile: Profile): SourceMerge {
    const searchable = this.deps.searchable?.(config)
    const input = {
      config,
      discovered: this.known.get(config.id)?.get(userKey(profile))?.resources ?? null,
      remembered: this.deps.settings.selection(profile.id, config.id),
      user: actingUser(profile),
      ...(searchable === undefined ? {} : { searchable }),
    }
    // Every search plans from this: merge again only when one of its inputs changed.
    const inputs = JSON.stringify([input.remembered, input.user, searchable])
    const last = this.merged.get(config.id)
    if (last?.config === config && last.discovered === input.discovered && last.inputs === inputs) {
      return last.merge
    }
    const merge = mergeSources(input)
    this.merged.set(config.id, { config, discovered: input.discovered, inputs, merge })
    return merge
  }

  /** Forgets what discovery learnt about these servers (their config changed or went away). */
  forget(serverIds: string[]): void {
    for (const id of serverIds) {
      this.known.delete(id)
      this.announced.delete(id)
      this.merged.delete(id)
    }
  }

  private async discoverOne(
    id: string,
    config: ServerConfig | undefined,
    profile: Profile,
    { timeoutMs, automatic }: { timeoutMs?: number | undefined; automatic?: boolean | undefined },
  ): Promise<ServerDiscovery> {
    const problem = targetError(id, config, profile)
    if (!config || problem) return failed(id, problem!)
    const user = actingUser(profile)
    const k = userKey(profile)
    const known = mapOf(this.known, config.id)
    const reusable = automatic ? this.reusable(known.get(k), config) : undefined
    const asked = Date.now()
    const outcome = reusable
      ? { ok: true as const, value: reusable.resources, latencyMs: reusable.latencyMs }
      : await this.deps.calls.run(
          config,
          {
            user,
            operation: 'discover',
            sources: [],
            budgetMs: timeoutMs ?? config.timeoutMs,
            ...(automatic ? { automatic } : {}),
          },
          async ({ session, adapter, options }) => {
            const output = await adapter.discover(session, options)
            const authoritative = adapter.capabilities(session.tools).discover
            return {
              value: authoritative ? output.resources : null,
              resultCount: output.resources.length,
            }
          },
        )
    if (outcome.ok && !reusable) {
      known.set(k, {
        resources: outcome.value,
        askedAt: asked,
        latencyMs: outcome.latencyMs,
        connection: this.deps.connection?.(config.id),
        entry: JSON.stringify(config),
      })
    }
    const searchable = this.deps.searchable?.(config)
    const merged = mergeSources({
      config,
      // A failed discovery says nothing about which sources exist: keep what is known.
      discovered: known.get(k)?.resources ?? null,
      remembered: this.deps.settings.selection(profile.id, config.id),
      user,
      ...(searchable === undefined ? {} : { searchable }),
    })
    // A failed discovery of a server not known to be searchable selects nothing: its sources
    // (or "All documents") are listed, but nothing says a search of them would work.
    const sources =
      outcome.ok || searchable !== undefined
        ? merged.sources
        : merged.sources.map((source) => ({ ...source, selected: false }))
    this.announce(k, profile, config.id, merged.missing)
    const result: ServerDiscovery = {
      server: config.id,
      ok: outcome.ok,
      latencyMs: outcome.latencyMs,
      sources,
      missing: merged.missing,
    }
    if (!outcome.ok) result.error = outcome.error
    else {
      result.askedAt = known.get(k)!.askedAt
      if (reusable) result.cached = true
    }
    return result
  }

  /**
   * What an automatic discovery may answer without asking: the last answer for this identity,
   * while it is younger than {@link DISCOVERY_CACHE_MS}, its registry entry is the same and
   * the server has not reconnected since. A failure is never kept.
   */
  private reusable(last: Discovered | undefined, config: ServerConfig): Discovered | undefined {
    if (!last || last.entry !== JSON.stringify(config)) return undefined
    const age = Date.now() - last.askedAt
    if (age < 0 || age >= DISCOVERY_CACHE_MS) return undefined
    return last.connection === this.deps.connection?.(config.id) ? last : undefined
  }

  private announce(k: string, profile: Profile, server: string, missing: string[]): void {
    const text = missing.join('\n')
    const announced = mapOf(this.announced, server)
    if ((announced.get(k) ?? '') === text) return
    announced.set(k, text)
    if (missing.length > 0 && profile.id === this.deps.profile().id) {
      this.deps.events.emit('discovery:missing', { server, sources: missing })
    }
  }
}

/** Discovery answers depend on who asks: the profile and the identity it sends. */
function userKey(profile: Profile): string {
  return JSON.stringify([profile.id, profile.userId, profile.sessionTags, profile.humanUid ?? ''])
}

function mapOf<V>(outer: Map<string, Map<string, V>>, server: string): Map<string, V> {
  let inner = outer.get(server)
  if (!inner) {
    inner = new Map()
    outer.set(server, inner)
  }
  return inner
}

function failed(server: string, error: ErrorInfo): ServerDiscovery {
  return { server, ok: false, error, latencyMs: 0, sources: [], missing: [] }
}
