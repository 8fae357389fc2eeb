import { createHash } from 'node:crypto'
import type { ServerConfig } from '#shared/config/schema'
import { ConsoleError } from '#shared/errors'
import type { PoolLogLine, PoolServerStatus, PoolServerTools } from '#shared/ipc/servers'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import type { RegistryDiff } from '#shared/model/registry'
import type { RateLimitInfo, ServerHealth, ServerStatus, ToolInfo } from '#shared/model/server'
import type { Registry } from '../config/types'
import type { EventBus } from '../events'
import type { Logger } from '../log'
import type { PoolAuth } from '../auth/pool-auth'
import type { Redactor, SecretResolver } from '../secrets/types'
import type { CallObserver } from './call-observer'
import { systemClock, type Clock } from './clock'
import { ServerConnection } from './connection'
import type { ElicitationHandler } from './elicitation'
import { notConnectedError } from './connection-errors'
import { poolOptions, type PoolOptions, type PoolOptionsInput } from './options'
import { LogBudget, LogDeferral, type ProtocolLog } from './protocol-log'
import type { CallOptions, RawToolResult, ServerSession } from './types'

export type { PoolOptions, PoolOptionsInput } from './options'
export { DEFAULT_POOL_OPTIONS } from './options'

export interface PoolDeps {
  /** Receives `server:status` on every status change. */
  events: EventBus
  /** Resolves `${keychain:…}` / `${env:…}` references at connect time. */
  secrets: SecretResolver
  logger?: Logger
  /** Applied to every log line a server prints before it is kept. */
  redactor?: Redactor
  clock?: Clock
  options?: PoolOptionsInput
  /**
   * The registry's entry for an id, so a server that is configured but not in the pool is
   * told apart from an unknown id.
   */
  registered?: (serverId: string) => ServerConfig | undefined
  /** Hears of every measured call of every server (metrics, traces). */
  observe?: CallObserver
  /** OAuth for HTTP / SSE servers that use it. */
  auth?: PoolAuth
  /**
   * Whoever answers servers' forms (`elicitation/create`). Clients declare the elicitation
   * capability only when it is set; servers that ask anyway get a "method not found" error.
   */
  elicit?: ElicitationHandler
  /**
   * Where launches take their lock (`<dataDir>/locks`): every console on one data folder
   * launches a `launch` server once, and one already answering at its URL is used.
   */
  launchLocks?: string
}

/**
 * The console's live connections: one {@link ServerConnection} (one SDK Client) per enabled
 * server, keyed by id and the hash of its effective config. Driven by {@link apply}; services
 * get a {@link ServerSession} per server and never see JSON-RPC.
 */
export class ConnectionPool {
  private readonly connections = new Map<string, ServerConnection>()
  private readonly protocolListeners = new Set<(server: string, entry: ProtocolEntry) => void>()
  private readonly options: PoolOptions
  private readonly clock: Clock
  private readonly deferral: LogDeferral
  /** What every server's protocol log keeps, counted together. */
  private readonly logBudget = new LogBudget()
  private applying: Promise<unknown> = Promise.resolve()
  /** While set, new connections wait for it before connecting (see {@link holdConnects}). */
  private hold: Promise<unknown> | null = null
  private disposed = false

  constructor(private readonly deps: PoolDeps) {
    this.options = poolOptions(deps.options)
    this.clock = deps.clock ?? systemClock
    this.deferral = new LogDeferral(this.clock)
  }

  /**
   * Brings the pool in line with a registry: new servers connect, removed ones close (their
   * child processes and launched servers stop), changed ones (different hash) reconnect, and
   * unchanged ones keep their exact Client and connection. Resolves once removed and changed
   * servers are closed; new connections continue in the background (see {@link session}).
   * `hashes` defaults to a hash of each config.
   */
  apply(servers: ServerConfig[], hashes: Record<string, string> = {}): Promise<RegistryDiff> {
    const run = this.applying.then(() => this.applyNow(servers, hashes))
    this.applying = run.catch(() => {})
    return run
  }

  /** Resolves once every {@link apply} asked for so far has been made. */
  async idle(): Promise<void> {
    await this.applying
  }

  /**
   * New connections are listed (as connecting) but start connecting only once `until` settles:
   * the browser host serves its first page before 200 servers compete with it for the CPU.
   */
  holdConnects(until: Promise<unknown>): void {
    const hold = until.then(
      () => undefined,
      () => undefined,
    )
    this.hold = hold
    void hold.then(() => {
      if (this.hold === hold) this.hold = null
    })
  }

  /** {@link apply} for a registry as the config module produces it. */
  applyRegistry(registry: Registry): Promise<RegistryDiff> {
    return this.apply(registry.servers, registry.hashes)
  }

  private async applyNow(
    servers: ServerConfig[],
    hashes: Record<string, string>,
  ): Promise<RegistryDiff> {
    if (this.disposed) throw this.disposedError()
    const diff: RegistryDiff = { added: [], removed: [], changed: [], unchanged: [] }
    const wanted = new Map(servers.map((config) => [config.id, config]))
    const closing: Promise<void>[] = []
    for (const [id, connection] of this.connections) {
      if (wanted.has(id)) continue
      diff.removed.push(id)
      this.connections.delete(id)
      closing.push(connection.close())
    }
    const starting: ServerConnection[] = []
    for (const config of wanted.values()) {
      const hash = hashes[config.id] ?? configHash(config)
      const existing = this.connections.get(config.id)
      if (existing && existing.hash === hash) {
        diff.unchanged.push(config.id)
        continue
      }
      if (existing) {
        diff.changed.push(config.id)
        closing.push(existing.close())
      } else diff.added.push(config.id)
      const connection = new ServerConnection(config, hash, {
        secrets: this.deps.secrets,
        clock: this.clock,
        options: this.options,
        deferral: this.deferral,
        logBudget: this.logBudget,
        onStatus: (server, status) => this.emitStatus(connection, server, status),
        onProtocol: (server, entry) => {
          for (const listener of this.protocolListeners) listener(server, entry)
        },
        ...(this.deps.logger ? { logger: this.deps.logger.child({ server: config.id }) } : {}),
        ...(this.deps.redactor ? { redactor: this.deps.redactor } : {}),
        ...(this.deps.observe ? { observe: this.deps.observe } : {}),
        ...(this.deps.auth ? { auth: this.deps.auth } : {}),
        ...(this.deps.elicit ? { elicit: this.deps.elicit } : {}),
        ...(this.deps.launchLocks ? { launchLocks: this.deps.launchLocks } : {}),
      })
      this.connections.set(config.id, connection)
      starting.push(connection)
    }
    await Promise.all(closing)
    const hold = this.hold
    if (!hold) for (const connection of starting) connection.start()
    else {
      void hold.then(() => {
        // Removed or replaced meanwhile: the connection that replaced it starts itself.
        for (const c of starting)
          if (!this.disposed && this.connections.get(c.serverId) === c) c.start()
      })
    }
    return diff
  }

  private emitStatus(connection: ServerConnection, server: string, status: ServerStatus): void {
    // A replaced or removed connection no longer speaks for its id.
    if (this.connections.get(server) !== connection) return
    this.deps.events.emit('server:status', { server, status })
  }

  /**
   * A session for one server once it can take calls (waiting for a connect in progress, within
   * the server's timeout unless `timeoutMs` says otherwise). Fails with `not_found`,
   * `not_connected`, `action_required`, `unauthorized`, `timeout`, … when it cannot.
   */
  async session(
    serverId: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ServerSession> {
    const connection = this.get(serverId)
    await connection.ready(options)
    return connection.session
  }

  /** `tools/call` on one server (see {@link ServerSession.callTool}). */
  async callTool(
    serverId: string,
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RawToolResult> {
    return this.get(serverId).callTool(name, args, options)
  }

  /** Any JSON-RPC request on one server (see {@link ServerSession.request}). */
  async request(
    serverId: string,
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<unknown> {
    return this.get(serverId).request(method, params, options)
  }

  /** Ids of every server in the pool, in registry order. */
  serverIds(): string[] {
    return [...this.connections.keys()]
  }

  status(serverId: string): ServerStatus {
    return this.get(serverId).status
  }

  /** The effective config a server of the pool connects with (ad-hoc servers included). */
  configOf(serverId: string): ServerConfig | undefined {
    return this.connections.get(serverId)?.config
  }

  statuses(): PoolServerStatus[] {
    return [...this.connections.values()].map((c) => ({ server: c.serverId, status: c.status }))
  }

  /** Health of one server, or of every server. */
  health(serverId?: string): ServerHealth[] {
    if (serverId !== undefined) return [this.get(serverId).healthSnapshot()]
    return [...this.connections.values()].map((c) => c.healthSnapshot())
  }

  /** How long a server's last successful `operation` call took; undefined when unknown. */
  lastLatency(serverId: string, operation: string): number | undefined {
    return this.connections.get(serverId)?.lastLatency(operation)
  }

  /** A server's last `X-RateLimit-*` values; undefined when unknown or not in the pool. */
  rateLimit(serverId: string): RateLimitInfo | undefined {
    return this.connections.get(serverId)?.rateLimit()
  }

  /** Reconnects one server now (after a secret changed, or to skip a backoff wait). */
  async reconnect(serverId: string): Promise<PoolServerStatus> {
    const status = await this.get(serverId).reconnect()
    return { server: serverId, status }
  }

  /**
   * A secret of `server` was set or removed: if its config references that name, reconnect it
   * (in the background) so the new value is used and a server waiting for it comes back.
   */
  secretChanged(change: { server: string; name: string }): void {
    const connection = this.disposed ? undefined : this.connections.get(change.server)
    if (!connection?.config.enabled || !referencesSecret(connection.config, change.name)) return
    void connection.reconnect().catch(() => {})
  }

  /** The last lines of a server's stderr, launch output and pool notes. */
  log(serverId: string, limit?: number): PoolLogLine[] {
    return this.get(serverId).logLines(limit)
  }

  /** A server's JSON-RPC traffic (kept across reconnects, dropped when its config changes). */
  protocol(serverId: string): ProtocolLog {
    return this.get(serverId).protocol
  }

  /**
   * Holds every server's protocol log while an operation of the services runs: messages are kept
   * as they pass and their entries worked out a turn after a hold is released (after the
   * operation answered), when a log is read, or within a second (without a hold: the turn after
   * they pass). Returns the release.
   */
  holdProtocolLogs(): () => void {
    return this.deferral.hold()
  }

  /** Characters every server's protocol log keeps now, together (bounded by one budget). */
  get protocolLogChars(): number {
    return this.logBudget.used
  }

  /** Works out now the entries of every message the protocol logs hold back. */
  settleProtocolLogs(): void {
    this.deferral.settle()
  }

  /** Hears of every protocol log entry of every server; returns the unsubscribe. */
  onProtocol(listener: (server: string, entry: ProtocolEntry) => void): () => void {
    this.protocolListeners.add(listener)
    return () => this.protocolListeners.delete(listener)
  }

  /** The tools a server listed at connect time, or listed again now with `refresh`. */
  async tools(serverId: string, options: { refresh?: boolean } = {}): Promise<PoolServerTools> {
    const connection = this.get(serverId)
    const tools = options.refresh
      ? await connection.refreshTools({ operation: 'tools/list' })
      : connection.tools
    const result: PoolServerTools = { server: serverId, tools }
    if (connection.serverInfo) result.serverInfo = connection.serverInfo
    return result
  }

  /** The tools a server listed when it last connected; none when it is not in the pool. */
  knownTools(serverId: string): ToolInfo[] {
    return this.connections.get(serverId)?.tools ?? []
  }

  /** Process ids of every running stdio child and launched server (diagnostics, tests). */
  pids(): number[] {
    return [...this.connections.values()].flatMap((c) => c.pids)
  }

  /** Closes every connection and stops every child process and launched server. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await this.applying
    const connections = [...this.connections.values()]
    this.connections.clear()
    await Promise.all(connections.map((c) => c.close()))
  }

  private get(serverId: string): ServerConnection {
    if (this.disposed) throw this.disposedError()
    const connection = this.connections.get(serverId)
    if (!connection) throw this.absentError(serverId)
    return connection
  }

  /** Why a server is not in the pool, as far as the pool can tell. */
  private absentError(server: string): ConsoleError {
    const config = this.deps.registered?.(server)
    if (config) {
      const why = config.enabled
        ? 'the console has not connected it yet (its entry is new or changed, or this command connects only the servers it names); try again in a moment'
        : 'it is disabled in rag-mcp.json; enable it to use it'
      return notConnectedError(
        server,
        `server ${server} is in the registry but not connected: ${why}`,
      )
    }
    return new ConsoleError({
      code: 'not_found',
      origin: 'local',
      server,
      message: this.deps.registered
        ? `server ${server} is not in the registry; check the id in rag-mcp.json`
        : `server ${server} is not in the connection pool; check the id`,
    })
  }

  private disposedError(): ConsoleError {
    return new ConsoleError({
      code: 'not_connected',
      origin: 'local',
      message: 'the connection pool has been shut down',
    })
  }
}

/** Whether any value of the config refers to `${kind:name}`. */
function referencesSecret(config: ServerConfig, name: string): boolean {
  const texts = [
    config.url ?? '',
    ...Object.values(config.headers),
    ...Object.values(config.env),
    ...Object.values(config.launch?.env ?? {}),
  ]
  return texts.some((text) => text.includes(`:${name}}`))
}

/** A stable hash of a server's effective config (key order does not matter). */
export function configHash(config: ServerConfig): string {
  return createHash('sha256').update(stableJson(config)).digest('hex').slice(0, 16)
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
