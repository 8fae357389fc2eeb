import { join } from 'node:path'
import type { ServerConfig } from '#shared/config/schema'
import { plaintextSecretValues } from '#shared/config/plaintext-secrets'
import type { AppInfo, AppNotice, MetricsState } from '#shared/ipc/app'
import type { GoldenSet } from '#shared/model/evaluation'
import { loadEmbeddedRegistry, type EmbeddedRegistry } from './config/embedded'
import { resolveRegistrySource } from './config/lookup'
import { RegistryStore } from './config/store'
import type { Registry } from './config/types'
import { EventBus } from './events'
import { createLogger, type LogLevel, type Logger } from './log'
import { APP_VERSION, PRODUCT_NAME, defaultDataDir } from './paths'
import { MetricsSetting } from './monitoring/metrics-setting'
import { Monitoring, type MonitoringOptions } from './monitoring/monitoring'
import { CallObservers } from './pool/call-observer'
import { OAuthService } from './auth/oauth-service'
import type { ElicitationHandler } from './pool/elicitation'
import { ConnectionPool, type PoolOptionsInput } from './pool/pool'
import { KeychainStore, type KeychainStoreOptions } from './secrets/keychain-store'
import { createRedactor, type SecretRedactor } from './secrets/redactor'
import type { Redactor } from './secrets/types'
import { SecretsService } from './secrets/secrets-service'
import { SessionTokens } from './secrets/session-tokens'
import type { ActingUser, Profile } from '#shared/model/user'
import { RagServices } from './services/rag-services'
import { ElicitationBroker } from './services/elicitation-broker'
import { SettingsStore, profileForUser, type MetricsSettings } from './services/settings'
import { WorkbenchService } from './services/workbench-service'

export interface CoreOptions {
  /** `--config FILE`; otherwise the layered lookup decides. */
  configPath?: string
  /** Defaults to {@link defaultDataDir}. */
  dataDir?: string
  env?: NodeJS.ProcessEnv
  /** Extra runtime versions to report, e.g. Electron's. */
  versions?: Record<string, string>
  /**
   * The OS keychain unless told otherwise: tests pass `openEntry` to make it unavailable, or a
   * short `timeoutMs`.
   */
  keychain?: Omit<KeychainStoreOptions, 'redactor'>
  /** Reload the registry when its files change (default true; one-shot CLI commands say false). */
  watch?: boolean
  /**
   * Connect the pool to every server of the registry and follow its reloads (default false:
   * hosts that show live servers say true; tests and one-shot commands connect what they need).
   */
  connect?: boolean
  /**
   * With `connect`: list every server at once (as connecting) but start connecting only once
   * this settles (the browser host: once its first page is up).
   */
  connectAfter?: Promise<unknown>
  /**
   * The host's bootstrap of the embedded (demo) registry: run before that registry is read when
   * no rag-mcp.json is found, and asked for the golden set offered with it. Without it the
   * embedded registry is read as it is and no golden set is offered.
   */
  demo?: DemoBootstrap
  /** Pool tunables (probe period, concurrency, backoff, …). */
  pool?: PoolOptionsInput
  /**
   * Who the operations run as for this core's lifetime: these fields replace the active
   * profile's (the CLI's `--user`, `--tags`, `--human-uid`); nothing is saved to settings.
   */
  actingUser?: Partial<ActingUser>
  /**
   * Log lines at or above this level are also written to stderr (default `warn`); `null` keeps
   * them in the log file only (the CLI prints its own warnings).
   */
  logToStderr?: LogLevel | null
  /**
   * Monitoring, started before the pool connects. `true` (the hosts): canaries at start and
   * after reloads, /metrics when settings.json turns it on (a busy port is a notice), OTLP when
   * OTEL_EXPORTER_OTLP_* say where. Options (`rag-console monitor`): exactly those, a busy port
   * fails; the caller starts the canaries ({@link Monitoring.startCanaries}). Default: none.
   */
  monitor?: boolean | MonitoringOptions
  /**
   * Whoever answers servers' forms (`elicitation/create`): the CLI's `--elicit`, or `windows`
   * (the hosts): the app's windows, through {@link Core.elicitation}. Without it the pool
   * offers no elicitation.
   */
  elicit?: ElicitationHandler | 'windows'
}

/**
 * What the core hands a {@link DemoBootstrap} to prepare the embedded registry with.
 */
export interface DemoContext {
  /** The core's environment (a copy of the process's): values put here resolve `${env:…}`. */
  env: NodeJS.ProcessEnv
  keychain: KeychainStore
  redactor: Redactor
  log: Logger
  settings: SettingsStore
  /** Records a notice for the UI ({@link Core.notice}). */
  notice: Core['notice']
  /** From now on, the embedded registry is read through `load`. */
  readEmbeddedWith(load: () => EmbeddedRegistry): void
}

/**
 * How a host makes the embedded (demo) registry work on first launch. The core knows only this
 * shape; the hosts pass the one of `src/main/demo-bootstrap/`.
 */
export interface DemoBootstrap {
  /** Runs at start when the registry is the embedded one, before it is read; never throws. */
  prepare(context: DemoContext): Promise<void>
  /** The golden set offered with the embedded registry (Evaluation), if any. */
  goldenSet(): GoldenSet | undefined
}

/**
 * The whole console without a window: every service, composed in one place. Electron main,
 * the browser host, the CLI and the tests all build it through {@link createCore}.
 */
export class Core {
  readonly events = new EventBus()
  /** Every measured server call, for metrics and traces (see `monitoring/`). */
  readonly calls = new CallObservers()
  /** One live MCP connection per enabled server. */
  readonly pool: ConnectionPool
  readonly dataDir: string
  readonly env: NodeJS.ProcessEnv
  /** Every IPC response, error and log line passes through it. */
  readonly redactor: SecretRedactor = createRedactor()
  /** JSON lines in `<dataDir>/logs/main.log`, redacted. */
  readonly log: Logger
  /** Keychain entries, session tokens, the resolver the pool connects with, change events. */
  readonly secrets: SecretsService
  /** rag-mcp.json: the running registry, live reload, safe save and import. */
  readonly registry: RegistryStore
  /** Acting-user profiles and their source toggles (settings.json, not rag-mcp.json). */
  readonly settings: SettingsStore
  /** Discovery, search, synthesis, access checks and the audit log, as the active profile. */
  readonly services: RagServices
  /**
   * Ports this console listens on at 127.0.0.1 (the browser host adds its own): the citation
   * checker never requests them, so a hostile citation cannot reach the console through it.
   */
  readonly ownPorts = new Set<number>()
  /** Any tool, resources, prompts and the protocol log of any server; servers tried by hand. */
  readonly workbench: WorkbenchService
  /** Metrics, OTLP export and canaries, when the core was created with `monitor`. */
  monitoring: Monitoring | undefined
  /** OAuth sign-in of HTTP / SSE servers; tokens in the keychain. */
  readonly auth: OAuthService
  /** Forms servers ask people to fill in, answered in the app's windows (hosts only). */
  readonly elicitation: ElicitationBroker | undefined
  private readonly notices: AppNotice[] = []
  /** Effective-config hashes whose plaintext secrets the redactor already knows. */
  private readonly scannedForSecrets = new Set<string>()
  private readonly keychain: KeychainStore
  private embedded: () => EmbeddedRegistry = () => loadEmbeddedRegistry()
  /** The metrics switch as settings.json says, followed while running (hosts only). */
  private metricsSetting: MetricsSetting | undefined
  private disposed = false

  private constructor(private readonly options: CoreOptions) {
    // A copy: a demo bootstrap may add keys to it without touching the process environment.
    this.env = { ...(options.env ?? process.env) }
    this.dataDir = options.dataDir ?? defaultDataDir(this.env)
    this.log = createLogger({
      dir: join(this.dataDir, 'logs'),
      redactor: this.redactor,
      ...(options.logToStderr !== undefined ? { stderrLevel: options.logToStderr } : {}),
    })
    this.registry = new RegistryStore({
      lookup: {
        dataDir: this.dataDir,
        env: this.env,
        ...(options.configPath ? { configPath: options.configPath } : {}),
      },
      events: this.events,
      watch: options.watch ?? true,
      log: this.log.child({ module: 'registry' }),
      embedded: () => this.embedded(),
      // Through the secrets service, so the pool hears of the new values.
      secrets: { set: (server, name, value) => this.secrets.set(server, name, value) },
    })
    this.keychain = new KeychainStore({ ...options.keychain, redactor: this.redactor })
    this.secrets = new SecretsService({
      keychain: this.keychain,
      session: new SessionTokens({ redactor: this.redactor }),
      redactor: this.redactor,
      env: this.env,
      servers: () => this.serverConfigs(),
    })
    // Servers tried in the Workbench live in a pool of their own.
    const poolOf = (id: string): ConnectionPool =>
      this.workbench.tries.has(id) ? this.workbench.tries.pool : this.pool
    this.auth = new OAuthService({
      keychain: this.keychain,
      config: (id) =>
        this.registry.server(id) ?? this.pool.configOf(id) ?? this.workbench.tries.config(id),
      servers: () => this.serverConfigs(),
      resolve: (config) => this.secrets.resolve(config),
      pool: {
        reconnect: (id) => poolOf(id).reconnect(id),
        status: (id) => (poolOf(id).configOf(id) ? poolOf(id).status(id) : undefined),
      },
      events: this.events,
      profileId: () => this.settings.active().id,
      env: this.env,
      redactor: this.redactor,
      logger: this.log.child({ module: 'auth' }),
    })
    if (options.elicit === 'windows') this.elicitation = new ElicitationBroker(this.events)
    const elicit = options.elicit === 'windows' ? this.elicitation?.handler : options.elicit
    this.pool = new ConnectionPool({
      auth: this.auth,
      events: this.events,
      secrets: this.secrets,
      redactor: this.redactor,
      logger: this.log.child({ module: 'pool' }),
      registered: (id) => this.registry.server(id),
      observe: this.calls.emit,
      launchLocks: join(this.dataDir, 'locks'),
      ...(options.pool ? { options: options.pool } : {}),
      ...(elicit ? { elicit } : {}),
    })
    this.secrets.onChanged((change) => {
      this.events.emit('secrets:changed', change)
      this.pool.secretChanged(change)
    })
    this.settings = new SettingsStore(join(this.dataDir, 'settings.json'), undefined, (aside) =>
      this.notice(
        'warning',
        `settings.json was edited by hand and cannot be read; it is kept as ${aside} and the console's settings were saved in its place`,
      ),
    )
    if (this.settings.recovered) {
      this.log.warn('settings.json was unreadable; kept aside, started with defaults', {
        keptAt: this.settings.recovered,
      })
    }
    this.services = new RagServices({
      registry: this.registry,
      pool: this.pool,
      settings: this.settings,
      secrets: {
        statusOf: (config, skipKeychain) => this.secrets.statusOf(config, skipKeychain),
        sessionToken: (server, name) => this.secrets.session.get(server, name),
      },
      events: this.events,
      redactor: this.redactor,
      auditDir: join(this.dataDir, 'audit'),
      accessHistoryFile: join(this.dataDir, 'access-history.json'),
      ownPorts: () => this.ownPorts,
      resolve: (config) => this.secrets.resolve(config),
      doctorFile: join(this.dataDir, 'doctor.json'),
      evalDir: join(this.dataDir, 'eval'),
      watchEvalRuns: options.watch ?? true,
      // The demo corpus's golden set makes sense only against the demo servers.
      demoSet: () =>
        this.registry.current().source.kind === 'embedded' ? options.demo?.goldenSet() : undefined,
      oauth: this.auth,
      operations: this.calls,
      ...(options.actingUser ? { profile: () => this.actingProfile() } : {}),
    })
    this.workbench = new WorkbenchService({
      pool: this.pool,
      registry: this.registry,
      audit: this.services.audit,
      profile: () => this.actingProfile(),
      secrets: this.secrets,
      redactor: this.redactor,
      events: this.events,
      dir: join(this.dataDir, 'workbench'),
      ...(options.pool ? { tryPool: options.pool } : {}),
      auth: this.auth,
      ...(elicit ? { elicit } : {}),
    })
    // What discovery learnt about a server no longer holds once its config changed.
    this.registry.onUpdated((registry, diff) => {
      this.registerFileSecrets(registry)
      this.services.discovery.forget([...diff.changed, ...diff.removed])
    })
  }

  /**
   * The profile operations run as: the active one, or, with {@link CoreOptions.actingUser},
   * the one those fields describe (see {@link profileForUser}).
   */
  actingProfile(): Profile {
    const given = this.options.actingUser
    return given ? profileForUser(this.settings, given) : this.settings.active()
  }

  static async create(options: CoreOptions = {}): Promise<Core> {
    const core = new Core(options)
    try {
      if (options.demo) await core.prepareDemoRegistry(options.demo)
      await core.registry.start()
      core.registerFileSecrets(core.registry.current())
      if (options.monitor === true) {
        await core.startMonitoring()
        if (options.watch ?? true) {
          core.metricsSetting = await MetricsSetting.follow({
            file: join(core.dataDir, 'settings.json'),
            settings: core.settings,
            monitoring: core.monitoring!,
            onError: (message) => core.notice('warning', message),
          })
        }
      } else if (options.monitor) core.monitoring = await Monitoring.start(core, options.monitor)
      if (options.connect) {
        if (options.connectAfter) core.pool.holdConnects(options.connectAfter)
        await core.pool.applyRegistry(core.registry.current())
        core.registry.onUpdated((registry) => void core.pool.applyRegistry(registry))
      }
      if (options.monitor === true) core.monitoring?.startCanaries()
    } catch (error) {
      await core.dispose()
      throw error
    }
    return core
  }

  /** The opt-in `/metrics` endpoint as settings.json has it, and where it serves. */
  metricsState(): MetricsState {
    const url = this.monitoring?.endpoint?.url
    return { ...this.settings.metrics(), ...(url ? { url } : {}) }
  }

  /**
   * Turns the opt-in `/metrics` endpoint on (at `port`) or off while running. The choice is
   * saved only when it took; a port in use is reported and what was served stays as it was.
   */
  async setMetrics(metrics: MetricsSettings): Promise<MetricsState> {
    const monitoring = this.monitoring
    if (!monitoring) {
      return { ...this.metricsState(), error: 'this console runs without monitoring' }
    }
    try {
      await monitoring.serveMetrics(metrics.enabled ? metrics.port : undefined)
    } catch (error) {
      return {
        ...this.metricsState(),
        error: error instanceof Error ? error.message : String(error),
      }
    }
    this.settings.setMetrics(metrics)
    if (monitoring.endpoint) this.log.info('serving metrics', { url: monitoring.endpoint.url })
    return this.metricsState()
  }

  /** Starts monitoring as settings.json says; a metrics port in use is a notice, not fatal. */
  private async startMonitoring(): Promise<void> {
    const metrics = this.settings.metrics()
    const options = { canaryIntervalMs: 0, otelEnv: this.env }
    if (metrics.enabled) {
      try {
        this.monitoring = await Monitoring.start(this, { ...options, metricsPort: metrics.port })
        this.log.info('serving metrics', { url: this.monitoring.endpoint?.url })
        return
      } catch (error) {
        this.notice(
          'warning',
          `Metrics are not served: ${error instanceof Error ? error.message : String(error)} (settings.json "metrics.port")`,
        )
      }
    }
    this.monitoring = await Monitoring.start(this, options)
  }

  /** Runs the host's demo bootstrap when the registry is the embedded one. */
  private async prepareDemoRegistry(demo: DemoBootstrap): Promise<void> {
    const source = resolveRegistrySource({
      dataDir: this.dataDir,
      env: this.env,
      ...(this.options.configPath ? { configPath: this.options.configPath } : {}),
    })
    if (source.kind !== 'embedded') return
    await demo.prepare({
      env: this.env,
      keychain: this.keychain,
      redactor: this.redactor,
      log: this.log,
      settings: this.settings,
      notice: (level, message, more) => this.notice(level, message, more),
      readEmbeddedWith: (load) => (this.embedded = load),
    })
  }

  /**
   * Records a notice for the UI (shown at startup) and announces it to open windows; one with
   * an id the user dismissed before is not shown again.
   */
  notice(
    level: AppNotice['level'],
    message: string,
    more: Pick<AppNotice, 'id' | 'detail'> = {},
  ): void {
    // Ids are checked against settings.json, which is read by then (its own notice has no id).
    if (more.id !== undefined && this.settings.dismissedNotices().includes(more.id)) return
    const notice: AppNotice = { level, message, at: Date.now(), ...more }
    this.notices.push(notice)
    this.events.emit('app:notice', notice)
  }

  /** The user dismissed a notice for good: it is not listed or shown again. */
  dismissNotice(id: string): void {
    this.settings.dismissNotice(id)
    for (let i = this.notices.length - 1; i >= 0; i--) {
      if (this.notices[i]!.id === id) this.notices.splice(i, 1)
    }
  }

  info(): AppInfo {
    return {
      productName: PRODUCT_NAME,
      version: APP_VERSION,
      versions: { node: process.versions.node, ...this.options.versions },
      platform: process.platform,
      dataDir: this.dataDir,
      registry: this.registry.current().source,
      notices: [...this.notices],
    }
  }

  /**
   * Credentials written in plain text in rag-mcp.json are kept out of output like stored ones.
   * The redactor only ever adds values, so an entry whose effective config was scanned before
   * (same hash) is skipped: an edit of one server among hundreds scans that one.
   */
  private registerFileSecrets(registry: Registry): void {
    for (const server of registry.servers) {
      const hash = registry.hashes[server.id]
      if (hash !== undefined && this.scannedForSecrets.has(hash)) continue
      for (const value of plaintextSecretValues(server)) this.redactor.addFromFile(value)
      if (hash !== undefined) this.scannedForSecrets.add(hash)
    }
  }

  /** The effective config of every server in the registry. */
  serverConfigs(): ServerConfig[] {
    return this.registry.current().servers
  }

  /** Stops every watcher, child process, connection and timer the core owns. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await this.metricsSetting?.dispose()
    await this.monitoring?.dispose()
    this.auth.dispose()
    this.elicitation?.dispose()
    await this.workbench.dispose()
    await this.services.dispose()
    await this.pool.dispose()
    // Closing sessions may have refreshed a token: its rotated refresh token must be kept.
    await this.auth.idle()
    this.secrets.dispose()
    await this.registry.dispose()
    this.events.clear()
  }
}

export const createCore = (options?: CoreOptions): Promise<Core> => Core.create(options)
