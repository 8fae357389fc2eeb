import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { LaunchConfig, ServerConfig } from '#shared/config/schema'
import type { ConsoleError } from '#shared/errors'
import type { ToolInfo } from '#shared/model/server'
import type { PoolAuth } from '../auth/pool-auth'
import type { ResolvedConnection, SecretResolver } from '../secrets/types'
import type { CallContext, CallTracker } from './call-context'
import type { Clock } from './clock'
import type { ElicitationHandler } from './elicitation'
import { missingSecretsError, removedError } from './connection-errors'
import { handshake, rejectsInitialize } from './handshake'
import { alreadyAnswering, DEFAULT_READY_TIMEOUT_MS, LaunchedServer, portOf } from './launcher'
import { createClient, type OpenedClient, type WireHooks } from './open-client'
import type { ProtocolLog } from './protocol-log'
import type { ServerLog } from './server-log'
import type { ServerSession } from './types'
import { withFileLock } from '../util/file-lock'

/** How long past a launch's own deadline its lock is still honoured. */
const LOCK_MARGIN_MS = 10_000

export interface ConnectorDeps {
  config: ServerConfig
  secrets: SecretResolver
  clock: Clock
  clientInfo: { name: string; version: string }
  maxMessageBytes: number
  tracker: CallTracker
  hooks: WireHooks
  log: ServerLog
  protocol?: ProtocolLog
  auth?: PoolAuth
  elicit?: ElicitationHandler
  /** Aborted when the server leaves the pool: every wait gives up. */
  signal: AbortSignal
  timeoutMs: number
  newContext(): CallContext
  /** `used` is the client the error came from (its stdio child's exit is part of the story). */
  classify(error: unknown, context: CallContext, used?: OpenedClient): ConsoleError
  /** The launched server process ended on its own. */
  onLaunchedExit(how: string): void
  /**
   * A folder shared by every console on this data folder: a launch takes a lock there, so two
   * consoles starting together launch a server once and the second uses it.
   */
  launchLocks?: string
  /** Whether calls carry the acting user's identity headers (HTTP, SSE). */
  identity?: () => boolean
}

/** A connected, initialized Client with what the server told about itself. */
export interface Connected {
  opened: OpenedClient
  tools: ToolInfo[]
  serverInfo: NonNullable<ServerSession['serverInfo']>
}

/**
 * Opens connections to one server: resolves its secrets, starts its `launch` process when
 * needed (and keeps it across reconnects while it runs), builds the Client and transports,
 * and does the handshake, falling back to none for servers that refuse `initialize` (a lesson
 * kept until {@link reset}).
 */
export class Connector {
  private skipHandshake = false
  private launched: LaunchedServer | undefined
  private borrowing = false

  constructor(private readonly deps: ConnectorDeps) {}

  get launchedPid(): number | undefined {
    return this.launched?.running ? this.launched.pid : undefined
  }

  /**
   * A `launch` server that answered before this console would have started it: used, never
   * stopped by this console. When it goes away, connecting again launches one.
   */
  get borrowed(): boolean {
    return this.borrowing
  }

  /** Forgets what was learned about the server. */
  reset(): void {
    this.skipHandshake = false
  }

  /** Connects once; every failure is a classified ConsoleError. */
  async open(): Promise<Connected> {
    const { deps } = this
    let context = deps.newContext()
    let opened: OpenedClient | undefined
    try {
      const resolved = await deps.secrets.resolve(this.resolvable())
      if (resolved.missing.length > 0) throw missingSecretsError(deps.config.id, resolved.missing)
      await this.ensureLaunched(resolved)
      opened = this.createClient(resolved)
      try {
        return { opened, ...(await this.handshake(opened, context)) }
      } catch (error) {
        await opened.close()
        if (this.skipHandshake || deps.signal.aborted || !rejectsInitialize(context, error)) {
          throw error
        }
        const why = deps.classify(error, context, opened).message
        deps.log.note(
          `the server refused "initialize" (${why}); talking to it without the handshake`,
        )
        this.skipHandshake = true
        deps.tracker.release(context)
        context = deps.newContext()
        opened = this.createClient(resolved)
        try {
          return { opened, ...(await this.handshake(opened, context)) }
        } catch (retryError) {
          await opened.close()
          throw retryError
        }
      }
    } catch (error) {
      throw deps.classify(error, context, opened)
    } finally {
      deps.tracker.release(context)
    }
  }

  async stopLaunched(): Promise<void> {
    const launched = this.launched
    this.launched = undefined
    await launched?.stop()
  }

  /** The config as the secret resolver sees it: a launched server's env includes `launch.env`. */
  private resolvable(): ServerConfig {
    const { config } = this.deps
    if (!config.launch?.env || config.transport === 'stdio') return config
    return { ...config, env: { ...config.env, ...config.launch.env } }
  }

  private createClient(resolved: ResolvedConnection): OpenedClient {
    const { deps } = this
    return createClient({
      config: deps.config,
      resolved,
      tracker: deps.tracker,
      skipHandshake: this.skipHandshake,
      hooks: deps.hooks,
      clientInfo: deps.clientInfo,
      maxMessageBytes: deps.maxMessageBytes,
      ...(deps.protocol ? { protocol: deps.protocol } : {}),
      ...(deps.auth ? { auth: deps.auth } : {}),
      ...(deps.elicit ? { elicit: deps.elicit } : {}),
      ...(deps.identity ? { identity: deps.identity } : {}),
    })
  }

  private handshake(
    opened: OpenedClient,
    context: CallContext,
  ): Promise<Omit<Connected, 'opened'>> {
    const { deps } = this
    return handshake(opened, {
      context,
      timeoutMs: deps.timeoutMs,
      signal: deps.signal,
      clock: deps.clock,
      dialect: deps.config.dialect,
      note: (text) => deps.log.note(text),
    })
  }

  private async ensureLaunched(resolved: ResolvedConnection): Promise<void> {
    const { config } = this.deps
    const { launch } = config
    if (!launch || config.transport === 'stdio' || this.launched?.running) return
    this.launched = undefined
    const url = resolved.url ?? config.url
    const locks = this.deps.launchLocks
    if (!locks) return this.launch(launch, resolved, url)
    // One console at a time decides, per host and port (whatever id or path each gives it):
    // the one that waited finds it answering.
    const { host, port } = portOf(config.id, url)
    const address = createHash('sha256').update(`${host}:${port}`).digest('hex').slice(0, 16)
    await withFileLock(
      join(locks, `launch-${address}.lock`),
      () => this.launch(launch, resolved, url),
      {
        staleMs: (launch.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS) + LOCK_MARGIN_MS,
        signal: this.deps.signal,
      },
    )
  }

  /** Starts the `launch` command, unless something already answers at the server's URL. */
  private async launch(
    launch: LaunchConfig,
    resolved: ResolvedConnection,
    url: string | undefined,
  ): Promise<void> {
    const { config, log } = this.deps
    this.borrowing = await alreadyAnswering(config.id, url)
    if (this.borrowing) {
      log.note(
        `a server already answers at ${config.url} (another console started it): using it, not launching ${launch.command}; this console will not stop it`,
      )
      return
    }
    log.push('pool', `launching ${launch.command} ${(launch.args ?? []).join(' ')}`.trim())
    const launched = await LaunchedServer.start({
      serverId: config.id,
      launch,
      env: resolved.env,
      url,
      onLine: (text) => log.push('launch', text),
      signal: this.deps.signal,
    })
    if (this.deps.signal.aborted) {
      await launched.stop()
      throw removedError(config.id)
    }
    this.launched = launched
    launched.onExit((code, signal) => {
      if (this.launched !== launched) return
      this.launched = undefined
      this.deps.onLaunchedExit(
        `the launched server process ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`,
      )
    })
  }
}
