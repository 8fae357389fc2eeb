import { SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { DEFAULT_TIMEOUT_MS, type ServerConfig } from '../../../shared/config/schema'
import { ConsoleError, type ErrorInfo } from '../../../shared/errors'
import type { PoolLogLine, PoolLogStream } from '../../../shared/ipc/servers'
import type { ServerHealth, ServerStatus, ToolInfo } from '../../../shared/model/server'
import type { Logger } from '../log'
import type { Redactor, SecretRef, SecretResolver } from '../secrets/types'
import { backoffDelay, type BackoffOptions } from './backoff'
import { runBounded } from './bounded'
import { CallTracker, type CallContext } from './call-context'
import { classifyError } from './classify'
import type { Clock } from './clock'
import { HealthTracker, type DegradedThresholds, type HealthOptions } from './health'
import { LaunchedServer } from './launcher'
import { Limiter } from './limiter'
import { LineLog } from './line-log'
import {
  createClient,
  listTools,
  rawRequest,
  rejectsInitialize,
  type OpenedClient,
  type WireHooks,
} from './open-client'
import type { RepairOutcome } from './repair'
import type { CallOptions, RawToolResult, ServerSession } from './types'

/** Tunables of the pool; every field has a default (see `DEFAULT_POOL_OPTIONS`). */
export interface PoolOptions {
  /** Health probe period while connected; 0 turns probing off. */
  probeIntervalMs: number
  /** Deadline of one probe (capped by the server's own `timeoutMs`). */
  probeTimeoutMs: number
  /** Calls in flight per server; later ones wait. */
  maxConcurrentCalls: number
  backoff: BackoffOptions
  health: HealthOptions
  degraded: DegradedThresholds
  /** Lines kept per server (stderr, launch output, pool notes). */
  logLines: number
  clientInfo: { name: string; version: string }
  /** Source of jitter. */
  random: () => number
}

export interface ConnectionDeps {
  secrets: SecretResolver
  clock: Clock
  options: PoolOptions
  logger?: Logger
  redactor?: Redactor
  onStatus(serverId: string, status: ServerStatus): void
}

interface Active extends OpenedClient {
  /** Set when the console itself closes it: its close is not a crash. */
  closing: boolean
}

interface Outcome {
  result?: unknown
  error?: ConsoleError
  context: CallContext
}

/** Error codes after which only a person can bring the server back. */
const NEEDS_A_PERSON = new Set(['action_required', 'unauthorized', 'config'])

/**
 * One server of the pool: its SDK Client (rebuilt only when the process or session is gone),
 * its status, retries, health probes, concurrency limit, measurements and log.
 *
 * Status rules: `connecting` while a connect attempt runs; `ready` once initialized and tools
 * listed; `degraded` while ready but over the thresholds of {@link DegradedThresholds};
 * `down` after a failed attempt, a crash or an unreachable server, with the next retry
 * scheduled by exponential backoff with jitter; `action_required` when only a person can fix
 * it (missing secret, credentials refused, bad config) — no automatic retry, `reconnect()`
 * tries again; `disabled` when `enabled: false`.
 */
export class ServerConnection {
  readonly serverId: string
  readonly session: ServerSession
  private statusValue: ServerStatus
  private readonly health: HealthTracker
  private readonly log: LineLog
  private readonly limiter: Limiter
  private readonly tracker = new CallTracker()
  private readonly lifetime = new AbortController()
  private active: Active | undefined
  private pending: Promise<Active> | undefined
  private launched: LaunchedServer | undefined
  private timer: unknown
  private failures = 0
  private skipHandshake = false
  private probeMethod: 'ping' | 'tools/list' = 'ping'
  private closed = false
  private readonly notes = new Set<string>()
  private toolList: ToolInfo[] = []
  private info: ServerSession['serverInfo']

  constructor(
    readonly config: ServerConfig,
    readonly hash: string,
    private readonly deps: ConnectionDeps,
  ) {
    this.serverId = config.id
    const now = () => deps.clock.now()
    this.statusValue = config.enabled
      ? { state: 'connecting', since: now(), attempt: 1 }
      : { state: 'disabled', since: now() }
    this.health = new HealthTracker(config.id, deps.options.health, now)
    this.log = new LineLog(deps.options.logLines, now)
    this.limiter = new Limiter(deps.options.maxConcurrentCalls)
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the session reads live state
    const connection = this
    this.session = {
      serverId: config.id,
      config,
      get tools() {
        return connection.toolList
      },
      get serverInfo() {
        return connection.info
      },
      callTool: (name, args, options) => connection.callTool(name, args, options),
      request: (method, params, options) => connection.request(method, params, options),
    }
  }

  get status(): ServerStatus {
    return this.statusValue
  }

  get tools(): ToolInfo[] {
    return this.toolList
  }

  get serverInfo(): ServerSession['serverInfo'] {
    return this.info
  }

  /** Process id of the stdio child or launched server, if one runs (for diagnostics). */
  get pids(): number[] {
    return [this.active?.stdio?.pid, this.launched?.pid].filter((p): p is number => !!p)
  }

  /** Announces the initial status and starts connecting (unless disabled). */
  start(): void {
    this.deps.onStatus(this.serverId, this.statusValue)
    this.health.transition(this.statusValue)
    if (this.config.enabled) void this.connect().catch(() => {})
  }

  /** Waits until the server can take calls, or fails with why it cannot. */
  async ready(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    const context = this.context('connect')
    const timeoutMs = options.timeoutMs ?? this.timeoutMs
    await runBounded(context, timeoutMs, options.signal, this.deps.clock, () =>
      this.activeForCall(),
    ).catch((error: unknown) => {
      throw this.classify(error, context, timeoutMs)
    })
  }

  callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RawToolResult> {
    return this.call('tools/call', { name, arguments: args }, options) as Promise<RawToolResult>
  }

  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<unknown> {
    return this.call(method, params, options)
  }

  /** Lists the server's tools again (through the limiter, measured as `tools/list`). */
  async refreshTools(options: Partial<CallOptions> = {}): Promise<ToolInfo[]> {
    this.toolList = await listTools((method, params) =>
      this.request(method, params, { ...options, operation: 'tools/list' }),
    )
    return this.toolList
  }

  healthSnapshot(): ServerHealth {
    return this.health.snapshot(this.statusValue)
  }

  logLines(limit?: number): PoolLogLine[] {
    return this.log.lines(limit)
  }

  /**
   * Drops the connection (and a launched process) and connects again now, re-resolving
   * secrets; resolves with the status the attempt ended in.
   */
  async reconnect(): Promise<ServerStatus> {
    if (this.closed) throw this.gone()
    if (!this.config.enabled) return this.statusValue
    this.clearTimer()
    await this.pending?.catch(() => {})
    await this.dropActive()
    await this.stopLaunched()
    this.failures = 0
    this.skipHandshake = false
    this.probeMethod = 'ping'
    this.note('reconnect requested')
    await this.connect().catch(() => {})
    return this.statusValue
  }

  /** Stops everything this server owns: client, child process, launched server, timers. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.lifetime.abort()
    this.clearTimer()
    this.limiter.rejectAll(this.gone())
    const pending = this.pending
    await this.dropActive()
    await pending?.then((active) => active.close()).catch(() => {})
    await this.stopLaunched()
  }

  // --- connecting ---------------------------------------------------------------------------

  private connect(): Promise<Active> {
    if (this.active) return Promise.resolve(this.active)
    this.pending ??= this.open().finally(() => {
      this.pending = undefined
    })
    return this.pending
  }

  private async open(): Promise<Active> {
    this.clearTimer()
    this.setStatus({ state: 'connecting', since: this.now(), attempt: this.failures + 1 })
    let context = this.context('connect')
    const started = performance.now()
    try {
      const resolved = await this.deps.secrets.resolve(this.resolvable())
      if (resolved.missing.length > 0) throw this.missingSecrets(resolved.missing)
      await this.ensureLaunched(resolved.env, resolved.url)
      let opened = this.createClient(resolved)
      try {
        await this.handshake(opened, context)
      } catch (error) {
        await opened.close()
        if (this.skipHandshake || this.closed || !rejectsInitialize(context, error)) throw error
        this.skipHandshake = true
        this.note(`the server refused "initialize" (${this.classify(error, context).message}); talking to it without the handshake`)
        context = this.context('connect')
        opened = this.createClient(resolved)
        await this.handshake(opened, context).catch(async (retryError: unknown) => {
          await opened.close()
          throw retryError
        })
      }
      const active: Active = { ...opened, closing: false }
      if (this.closed) {
        await active.close()
        throw this.gone()
      }
      this.watch(active)
      this.active = active
      this.failures = 0
      this.health.record('connect', performance.now() - started)
      this.setStatus({ state: 'ready', since: this.now() })
      this.scheduleProbe()
      return active
    } catch (error) {
      const failure = this.classify(error, context)
      if (!this.closed) {
        this.health.record('connect', performance.now() - started, failure.toInfo())
        this.connectFailed(failure)
      }
      throw failure
    } finally {
      this.tracker.release(context)
    }
  }

  /** The config as the secret resolver sees it: a launched server's env includes `launch.env`. */
  private resolvable(): ServerConfig {
    const { launch } = this.config
    if (!launch?.env || this.config.transport === 'stdio') return this.config
    return { ...this.config, env: { ...this.config.env, ...launch.env } }
  }

  private createClient(resolved: Parameters<typeof createClient>[0]['resolved']): OpenedClient {
    return createClient({
      config: this.config,
      resolved,
      tracker: this.tracker,
      skipHandshake: this.skipHandshake,
      hooks: this.hooks,
      clientInfo: this.deps.options.clientInfo,
    })
  }

  /** `initialize` (unless skipped), then the tool list, within the server's timeout. */
  private async handshake(opened: OpenedClient, context: CallContext): Promise<void> {
    const timeoutMs = this.timeoutMs
    await runBounded(context, timeoutMs, this.lifetime.signal, this.deps.clock, async (signal) => {
      await opened.client.connect(opened.transport, { signal, timeout: timeoutMs })
      const send = (method: string, params: Record<string, unknown> | undefined) =>
        rawRequest(opened.client, method, params, signal, timeoutMs)
      try {
        this.toolList = await listTools(send)
      } catch (error) {
        // A server that answers but cannot list tools is still reachable: say so, keep going.
        if (!context.serverError) throw error
        this.note(`tools/list failed: ${context.serverError.message}`)
        delete context.serverError
        this.toolList = []
      }
      const version = opened.client.getServerVersion()
      const info: NonNullable<ServerSession['serverInfo']> = {}
      if (version?.name) info.name = version.name
      if (version?.version) info.version = version.version
      if (this.config.dialect === 'vtex') {
        // Spec 004's non-standard handshake; its answer is informative only.
        info.handshake = await send('handshake', {
          version: '1.0.0',
          capabilities: ['tools', 'resources'],
        }).catch(() => undefined)
        delete context.serverError
      }
      this.info = info
    })
  }

  private async ensureLaunched(env: Record<string, string>, url: string | undefined): Promise<void> {
    const { launch } = this.config
    if (!launch || this.config.transport === 'stdio' || this.launched?.running) return
    this.launched = undefined
    this.log.push('pool', `launching ${launch.command} ${(launch.args ?? []).join(' ')}`.trim())
    const launched = await LaunchedServer.start({
      serverId: this.serverId,
      launch,
      env,
      url: url ?? this.config.url,
      onLine: (text) => this.log.push('launch', this.redact(text)),
      signal: this.lifetime.signal,
    })
    if (this.closed) {
      await launched.stop()
      throw this.gone()
    }
    this.launched = launched
    launched.onExit((code, signal) => {
      if (this.launched !== launched) return
      this.launched = undefined
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
      this.lost(`the launched server process ${how}`)
    })
  }

  private connectFailed(error: ConsoleError): void {
    if (NEEDS_A_PERSON.has(error.code)) {
      this.clearTimer()
      const missing = error.details?.missingSecrets
      this.setStatus({
        state: 'action_required',
        since: this.now(),
        reason: error.message,
        lastError: error.toInfo(),
        ...(Array.isArray(missing) ? { missingSecrets: missing as string[] } : {}),
      })
      return
    }
    this.retryLater(error, () => void this.connect().catch(() => {}))
  }

  // --- losing the connection ----------------------------------------------------------------

  /** Chains onto the handlers the SDK Client installed, so both learn of a close or error. */
  private watch(active: Active): void {
    const { transport } = active
    const clientOnClose = transport.onclose
    transport.onclose = () => {
      clientOnClose?.()
      if (this.active !== active || active.closing) return
      const exit = active.stdio?.exit
      const how = exit
        ? exit.signal
          ? `the server process was killed by ${exit.signal}`
          : `the server process exited with code ${exit.code}`
        : 'the connection closed'
      this.lost(how)
    }
    const clientOnError = transport.onerror
    transport.onerror = (error) => {
      clientOnError?.(error)
      this.deps.logger?.debug('transport error', { server: this.serverId, error })
      // The legacy SSE stream broke: its session is gone with it.
      if (error instanceof SseError && this.active === active && !active.closing) {
        this.lost(`the event stream broke (${error.message})`)
      }
    }
  }

  /** The connection is gone for good: drop it and rebuild after a backoff delay. */
  private lost(how: string): void {
    if (this.closed) return
    void this.dropActive()
    const error = new ConsoleError({
      code: 'unreachable',
      origin: 'local',
      server: this.serverId,
      message: `server ${this.serverId}: ${how}; the console reconnects automatically`,
    })
    this.retryLater(error, () => void this.connect().catch(() => {}))
  }

  private async dropActive(): Promise<void> {
    const active = this.active
    this.active = undefined
    if (!active) return
    active.closing = true
    await active.close()
  }

  private async stopLaunched(): Promise<void> {
    const launched = this.launched
    this.launched = undefined
    await launched?.stop()
  }

  // --- calls --------------------------------------------------------------------------------

  private async call(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<unknown> {
    const outcome = await this.exchange(method, params, options, { limit: true })
    if (outcome.error) {
      this.afterFailure(outcome.error, outcome.context)
      throw outcome.error
    }
    this.afterSuccess()
    return outcome.result
  }

  /**
   * One measured request: waits for a slot (unless `limit` is false), for a connection (or
   * uses `on`), then sends it within the deadline. Never throws; the outcome says what
   * happened.
   */
  private async exchange(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
    how: { limit: boolean; on?: Active },
  ): Promise<Outcome> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs
    const context = this.context(options.operation, options)
    let started = performance.now()
    let release: (() => void) | undefined
    let used: Active | undefined
    try {
      const result = await runBounded(context, timeoutMs, options.signal, this.deps.clock, async (signal) => {
        if (how.limit) release = await this.limiter.acquire(signal)
        used = how.on ?? (await this.activeForCall())
        started = performance.now()
        return rawRequest(used.client, method, params, signal, timeoutMs)
      })
      const isError = method === 'tools/call' && (result as RawToolResult | null)?.isError === true
      this.health.record(options.operation, performance.now() - started, isError ? this.toolError(params) : undefined)
      return { result, context }
    } catch (error) {
      const failure = this.classify(error, context, timeoutMs, used)
      this.health.record(options.operation, performance.now() - started, failure.toInfo())
      return { error: failure, context }
    } finally {
      release?.()
      this.tracker.release(context)
    }
  }

  private async activeForCall(): Promise<Active> {
    if (this.closed) throw this.gone()
    if (!this.config.enabled) {
      throw this.notConnected(`server ${this.serverId} is disabled in rag-mcp.json`)
    }
    if (this.active) return this.active
    if (this.pending) return this.pending
    const status = this.statusValue
    if (status.state === 'action_required') {
      throw new ConsoleError(
        status.lastError ?? {
          code: 'action_required',
          origin: 'local',
          server: this.serverId,
          message: status.reason,
        },
      )
    }
    if (status.state === 'down') {
      const retry = status.nextRetryAt
        ? `next retry in ${Math.max(0, Math.round((status.nextRetryAt - this.now()) / 1000))} s`
        : 'retrying'
      throw this.notConnected(
        `server ${this.serverId} is down (${status.lastError.message}); ${retry}, or reconnect it now`,
        { lastError: status.lastError },
      )
    }
    return this.connect()
  }

  private afterSuccess(): void {
    const state = this.statusValue.state
    if ((state === 'down' || state === 'action_required') && this.active) {
      this.failures = 0
      this.setStatus({ state: 'ready', since: this.now() })
      this.scheduleProbe()
      return
    }
    this.assessDegraded()
  }

  private afterFailure(error: ConsoleError, context: CallContext): void {
    if (this.closed) return
    const active = this.active
    if (context.httpStatus === 401) {
      this.setStatus({
        state: 'action_required',
        since: this.now(),
        reason: error.message,
        lastError: error.toInfo(),
      })
      return
    }
    if (active && this.sessionExpired(active, context, error)) {
      this.lost('the server no longer knows this session')
      return
    }
    if (error.code === 'unreachable' && active && this.config.transport !== 'stdio') {
      if (this.config.transport === 'sse') this.lost('the server went away')
      // HTTP: the same Client works again once the server is back; probe it with backoff.
      else this.retryLater(error, () => void this.probe())
      return
    }
    this.assessDegraded()
  }

  private sessionExpired(active: Active, context: CallContext, error: ConsoleError): boolean {
    if (!active.transport.hasServerSession) return false
    if (context.httpStatus === 404) return true
    return context.httpStatus === 400 && /session/i.test(String((error.cause as Error)?.message))
  }

  private assessDegraded(): void {
    const status = this.statusValue
    if (status.state !== 'ready' && status.state !== 'degraded') return
    const verdict = this.health.assess(this.deps.options.degraded)
    if (verdict) {
      this.setStatus({
        state: 'degraded',
        since: status.state === 'degraded' ? status.since : this.now(),
        reason: verdict.reason,
        ...(verdict.lastError ? { lastError: verdict.lastError } : {}),
      })
    } else if (status.state === 'degraded') {
      this.setStatus({ state: 'ready', since: this.now() })
    }
  }

  // --- health probes ------------------------------------------------------------------------

  private scheduleProbe(): void {
    const interval = this.deps.options.probeIntervalMs
    if (interval > 0) this.schedule(interval, () => void this.probe())
  }

  /**
   * A raw `ping` (any JSON-RPC reply, even an error or one with extra keys, means alive); a
   * server whose endpoint refuses `ping` at the HTTP level is probed with `tools/list`.
   */
  private async probe(): Promise<void> {
    const active = this.active
    if (!active || this.closed) return
    this.health.checked()
    let outcome = await this.probeWith(active, this.probeMethod)
    if (outcome.error && this.probeMethod === 'ping' && this.refusedAtHttpLevel(outcome.error)) {
      const fallback = await this.probeWith(active, 'tools/list')
      if (!fallback.error) {
        this.probeMethod = 'tools/list'
        this.note('the server does not route "ping"; health probes use tools/list')
      }
      outcome = fallback
    }
    if (this.closed || this.active !== active) return
    const failure = outcome.error
    if (!failure) {
      this.afterSuccess()
      if (this.timer === undefined) this.scheduleProbe()
      return
    }
    if (failure.code === 'unauthorized') {
      this.setStatus({
        state: 'action_required',
        since: this.now(),
        reason: failure.message,
        lastError: failure.toInfo(),
      })
      this.scheduleProbe()
      return
    }
    if (this.sessionExpired(active, outcome.context, failure)) {
      this.lost('the server no longer knows this session')
    } else if (this.config.transport === 'sse' && failure.code === 'unreachable') {
      this.lost('the server went away')
    } else this.retryLater(failure, () => void this.probe())
  }

  /** One probe request; any JSON-RPC reply, error or not, counts as alive. */
  private async probeWith(active: Active, method: 'ping' | 'tools/list'): Promise<Outcome> {
    const timeoutMs = Math.min(this.deps.options.probeTimeoutMs, this.timeoutMs)
    const outcome = await this.exchange(
      method,
      undefined,
      { operation: method, timeoutMs },
      { limit: false, on: active },
    )
    const { error, context } = outcome
    if (!error) return outcome
    const replied =
      context.serverError ||
      (context.protocolError && context.httpStatus === undefined) ||
      context.httpStatus === 429
    return replied ? { context } : outcome
  }

  private refusedAtHttpLevel(error: ConsoleError): boolean {
    const status = error.details?.httpStatus
    return error.code === 'protocol' || error.code === 'config' || (typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 403)
  }

  // --- status, timers, helpers --------------------------------------------------------------

  private retryLater(error: ConsoleError, action: () => void): void {
    if (this.closed) return
    // Several calls failing at once mean one outage, not several retries.
    if (this.statusValue.state === 'down' && this.timer !== undefined) return
    this.failures++
    const delay = backoffDelay(this.failures, this.deps.options.backoff, this.deps.options.random)
    const nextRetryAt = this.now() + delay
    this.setStatus({
      state: 'down',
      since: this.now(),
      lastError: error.toInfo(),
      attempt: this.failures,
      nextRetryAt,
    })
    this.log.push('pool', `${error.message} (retry ${this.failures} in ${delay} ms)`)
    this.schedule(delay, action)
  }

  private schedule(ms: number, action: () => void): void {
    this.clearTimer()
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined
      if (!this.closed) action()
    }, ms)
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer)
    this.timer = undefined
  }

  private setStatus(next: ServerStatus): void {
    if (this.closed) return
    const previous = this.statusValue
    this.statusValue = next
    this.health.transition(next)
    if (!sameStatus(previous, next)) this.deps.onStatus(this.serverId, next)
  }

  private readonly hooks: WireHooks = {
    onLine: (stream: PoolLogStream, text: string) => this.log.push(stream, this.redact(text)),
    onRepair: (outcome: RepairOutcome) => {
      if (outcome.problem) {
        this.tracker.markProtocolError(outcome.id, outcome.problem)
        this.note(`unusable reply: ${outcome.problem}`)
      }
      for (const fix of outcome.fixes) this.note(`tolerated a protocol quirk: ${fix}`)
    },
    onRateLimit: (info) => this.health.setRateLimit(info),
    onNote: (note) => this.note(note),
  }

  /** A remark about this server, logged once. */
  private note(text: string): void {
    if (this.notes.has(text)) return
    if (this.notes.size > 200) this.notes.clear()
    this.notes.add(text)
    this.log.push('pool', this.redact(text))
    this.deps.logger?.info(text, { server: this.serverId })
  }

  private redact(text: string): string {
    return this.deps.redactor ? this.deps.redactor.redact(text) : text
  }

  private context(operation: string, options?: CallOptions): CallContext {
    const context: CallContext = { serverId: this.serverId, operation, requestIds: [] }
    if (options?.user) context.user = options.user
    return context
  }

  private classify(
    error: unknown,
    context: CallContext,
    timeoutMs?: number,
    used: Active | undefined = this.active,
  ): ConsoleError {
    return classifyError(error, {
      serverId: this.serverId,
      operation: context.operation,
      call: context,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(this.config.url ? { url: this.config.url } : {}),
      ...(used?.stdio?.exit ? { exit: used.stdio.exit } : {}),
    })
  }

  private toolError(params: Record<string, unknown> | undefined): ErrorInfo {
    return {
      code: 'tool_error',
      origin: 'server',
      server: this.serverId,
      message: `server ${this.serverId}: tool ${String(params?.name)} reported an error`,
    }
  }

  private missingSecrets(refs: SecretRef[]): ConsoleError {
    const names = [...new Set(refs.map((ref) => ref.name))]
    const where = refs.map((ref) =>
      ref.kind === 'env'
        ? `environment variable ${ref.name}`
        : ref.kind === 'session'
          ? `session token ${ref.name}`
          : `secret ${ref.name}`,
    )
    return new ConsoleError({
      code: 'action_required',
      origin: 'local',
      server: this.serverId,
      message: `server ${this.serverId} cannot connect: ${[...new Set(where)].join(', ')} ${where.length === 1 ? 'is' : 'are'} not set. Set ${where.length === 1 ? 'it' : 'them'} (Settings → Secrets for keychain secrets), then reconnect`,
      details: { missingSecrets: names },
    })
  }

  private notConnected(message: string, details?: Record<string, unknown>): ConsoleError {
    return new ConsoleError({
      code: 'not_connected',
      origin: 'local',
      server: this.serverId,
      message,
      ...(details ? { details } : {}),
    })
  }

  private gone(): ConsoleError {
    return this.notConnected(
      `server ${this.serverId} was removed from the pool (its entry changed or was deleted); get a new session`,
    )
  }

  private get timeoutMs(): number {
    return this.config.timeoutMs > 0 ? this.config.timeoutMs : DEFAULT_TIMEOUT_MS
  }

  private now(): number {
    return this.deps.clock.now()
  }
}

function sameStatus(a: ServerStatus, b: ServerStatus): boolean {
  if (a.state !== b.state) return false
  const key = (s: ServerStatus): string =>
    JSON.stringify([
      'reason' in s ? s.reason : '',
      'attempt' in s ? s.attempt : 0,
      'nextRetryAt' in s ? s.nextRetryAt : 0,
      'lastError' in s ? s.lastError?.message : '',
    ])
  return key(a) === key(b)
}
