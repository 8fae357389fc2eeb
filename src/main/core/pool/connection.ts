import { SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { DEFAULT_TIMEOUT_MS, type ServerConfig } from '#shared/config/schema'
import { ConsoleError } from '#shared/errors'
import type { PoolLogLine } from '#shared/ipc/servers'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import type { RateLimitInfo, ServerHealth, ServerStatus, ToolInfo } from '#shared/model/server'
import type { Logger } from '../log'
import { MAX_SIGN_INS, type PoolAuth } from '../auth/pool-auth'
import {
  isSignInRequired,
  signInRequestOf,
  signInRequiredError,
  stepUpOf,
} from '../auth/sign-in-error'
import type { Redactor, SecretResolver } from '../secrets/types'
import { runBounded } from './bounded'
import { CallTracker, type CallContext } from './call-context'
import type { CallObserver } from './call-observer'
import { classifyError } from './classify'
import type { Clock } from './clock'
import { removedError, unavailableError } from './connection-errors'
import { Connector } from './connector'
import type { ElicitationHandler } from './elicitation'
import { Exchanger } from './exchange'
import { listTools } from './handshake'
import { HealthTracker } from './health'
import { Limiter } from './limiter'
import type { OpenedClient, WireHooks } from './open-client'
import type { PoolOptions } from './options'
import { notImplemented, Prober } from './probe'
import { ProtocolLog, type LogBudget, type LogDeferral } from './protocol-log'
import { ServerLog } from './server-log'
import { sessionOf } from './session'
import { StatusKeeper } from './status-keeper'
import type { CallOptions, RawToolResult, ServerSession } from './types'
import { sendsIdentity } from '../dialects/registry'

export interface ConnectionDeps {
  secrets: SecretResolver
  clock: Clock
  options: PoolOptions
  /** Holds the protocol log while the services run an operation. */
  deferral?: LogDeferral
  /** Counts what the protocol log keeps toward the pool's limit. */
  logBudget?: LogBudget
  logger?: Logger
  redactor?: Redactor
  onStatus(serverId: string, status: ServerStatus): void
  /** Every protocol log entry as it is added. */
  onProtocol?(serverId: string, entry: ProtocolEntry): void
  /** Every measured call and connect attempt, as the server's health records it. */
  observe?: CallObserver
  /** OAuth for HTTP / SSE servers that use it. */
  auth?: PoolAuth
  /** Answers servers' forms (`elicitation/create`); without it the Client offers none. */
  elicit?: ElicitationHandler
  /** See {@link ConnectorDeps.launchLocks}. */
  launchLocks?: string
}

interface Active extends OpenedClient {
  /** Set when the console itself closes it: its close is not a crash. */
  closing: boolean
}

/** Error codes after which only a person can bring the server back. */
const NEEDS_A_PERSON = new Set(['action_required', 'unauthorized', 'config'])

/**
 * One server of the pool: its SDK Client (rebuilt only when the process or session is gone),
 * status, retries, health probes, concurrency limit, measurements and log.
 *
 * Status: `connecting` while an attempt runs; `ready` once initialized and tools listed;
 * `degraded` while ready but past the `DegradedThresholds` (health.ts); `down` after a failed
 * attempt, a crash or an unreachable server, retried with exponential backoff and jitter (a
 * crashed stdio child, a broken SSE stream or an expired HTTP session get a new Client; an
 * HTTP server that went away is probed again on the same Client); `action_required` when only
 * a person can fix it (missing secret, credentials refused, bad config) — no automatic retry,
 * `reconnect()` tries again; `disabled` when `enabled: false`.
 */
export class ServerConnection {
  readonly serverId: string
  readonly session: ServerSession
  /**
   * Every JSON-RPC message both ways and the stderr lines, bounded and redacted; stays empty
   * when the pool keeps no protocol log (`protocolEntries: 0`).
   */
  readonly protocol: ProtocolLog
  private readonly health: HealthTracker
  private readonly log: ServerLog
  private readonly keeper: StatusKeeper
  private readonly limiter: Limiter
  private readonly tracker = new CallTracker()
  private readonly exchanger: Exchanger
  private readonly prober: Prober
  private readonly connector: Connector
  private readonly lifetime = new AbortController()
  private active: Active | undefined
  private pending: Promise<Active> | undefined
  private closed = false
  private toolList: ToolInfo[] = []
  private get keepsProtocol(): boolean {
    return this.deps.options.protocolEntries > 0
  }
  private info: ServerSession['serverInfo']
  /** What the transports report: output lines, repaired replies, rate limits, remarks. */
  private readonly hooks: WireHooks = {
    onLine: (stream, text) => {
      this.log.push(stream, text)
      if (stream === 'stderr' && this.keepsProtocol) this.protocol.stderr(text)
    },
    onRepair: (outcome) => {
      if (outcome.problem) {
        this.tracker.markProtocolError(outcome.id, outcome.problem)
        this.log.note(`unusable reply: ${outcome.problem}`)
      }
      for (const fix of outcome.fixes) this.log.note(`tolerated a protocol quirk: ${fix}`)
    },
    onRateLimit: (info) => this.health.setRateLimit(info),
    onNote: (note) => this.log.note(note),
  }

  constructor(
    readonly config: ServerConfig,
    readonly hash: string,
    private readonly deps: ConnectionDeps,
  ) {
    this.serverId = config.id
    const { clock, options } = deps
    const now = () => clock.now()
    this.health = new HealthTracker(config.id, options.health, now, options.degraded)
    this.log = new ServerLog(options.logLines, now, deps.redactor, deps.logger)
    this.protocol = new ProtocolLog({
      max: options.protocolEntries,
      now,
      ...(deps.redactor ? { redactor: deps.redactor } : {}),
      ...(deps.deferral ? { deferral: deps.deferral } : {}),
      ...(deps.logBudget ? { budget: deps.logBudget } : {}),
      ...(deps.onProtocol ? { onEntry: (entry) => deps.onProtocol!(config.id, entry) } : {}),
    })
    this.keeper = new StatusKeeper(
      config.enabled
        ? { state: 'connecting', since: now(), attempt: 1 }
        : { state: 'disabled', since: now() },
      {
        ...options,
        clock,
        health: this.health,
        log: this.log,
        onStatus: (s) => deps.onStatus(config.id, s),
      },
    )
    this.limiter = new Limiter(options.maxConcurrentCalls)
    this.exchanger = new Exchanger({
      serverId: config.id,
      clock,
      health: this.health,
      tracker: this.tracker,
      limiter: this.limiter,
      transport: config.transport,
      ...(deps.observe ? { observe: deps.observe } : {}),
      classify: (error, context, timeoutMs, used) => this.classify(error, context, timeoutMs, used),
    })
    this.prober = new Prober(
      (on, method) =>
        this.exchanger.run(
          method,
          undefined,
          { operation: method, timeoutMs: Math.min(options.probeTimeoutMs, this.timeoutMs) },
          { limit: false, connection: () => on, unmeasured: notImplemented, probe: true },
        ),
      (text) => this.log.note(text),
    )
    this.connector = new Connector({
      config,
      secrets: deps.secrets,
      clock,
      clientInfo: options.clientInfo,
      maxMessageBytes: options.maxMessageBytes,
      tracker: this.tracker,
      hooks: this.hooks,
      log: this.log,
      ...(this.keepsProtocol ? { protocol: this.protocol } : {}),
      ...(deps.auth ? { auth: deps.auth } : {}),
      ...(deps.elicit ? { elicit: deps.elicit } : {}),
      ...(deps.launchLocks ? { launchLocks: deps.launchLocks } : {}),
      signal: this.lifetime.signal,
      timeoutMs: this.connectTimeoutMs,
      newContext: () => this.exchanger.context('connect'),
      classify: (error, context, used) => this.classify(error, context, undefined, used),
      onLaunchedExit: (how) => this.lost(how),
      identity: () => sendsIdentity(config, this.tools),
    })
    this.session = sessionOf(this)
  }

  get status(): ServerStatus {
    return this.keeper.current
  }

  get tools(): ToolInfo[] {
    return this.toolList
  }

  get serverInfo(): ServerSession['serverInfo'] {
    return this.info
  }

  /** Process ids of the stdio child and launched server, if they run (diagnostics, tests). */
  get pids(): number[] {
    return [this.active?.stdio?.pid, this.connector.launchedPid].filter((p): p is number => !!p)
  }

  /** Announces the initial status and starts connecting (unless disabled). */
  start(): void {
    this.keeper.announce()
    if (this.config.enabled) void this.connect().catch(() => {})
  }

  /** Waits until the server can take calls, or fails with why it cannot. */
  async ready(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? this.connectTimeoutMs
    const context = this.exchanger.context('connect')
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
    return this.health.snapshot(this.keeper.current)
  }

  /** See {@link HealthTracker.lastLatency} (cheap: no health snapshot). */
  lastLatency(operation: string): number | undefined {
    return this.health.lastLatency(operation)
  }

  /** What the server last said about its rate limit (cheap: no health snapshot). */
  rateLimit(): RateLimitInfo | undefined {
    return this.health.rateLimitInfo
  }

  logLines(limit?: number): PoolLogLine[] {
    return this.log.lines(limit)
  }

  /**
   * Drops the connection (and a launched process) and connects again now, re-resolving
   * secrets; resolves with the status the attempt ended in.
   */
  async reconnect(): Promise<ServerStatus> {
    if (this.closed) throw removedError(this.serverId)
    if (!this.config.enabled) return this.keeper.current
    this.keeper.clearTimer()
    await this.pending?.catch(() => {})
    await this.dropActive()
    await this.connector.stopLaunched()
    this.connector.reset()
    this.prober.reset()
    this.log.push('pool', 'reconnect requested')
    await this.connect().catch(() => {})
    return this.keeper.current
  }

  /** Stops everything this server owns: client, child process, launched server, timers. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.lifetime.abort()
    this.keeper.stop()
    this.limiter.rejectAll(removedError(this.serverId))
    const pending = this.pending
    await this.dropActive()
    await pending?.then((active) => active.close()).catch(() => {})
    await this.connector.stopLaunched()
    // Gone from the pool: what its log kept no longer counts toward the pool's budget.
    this.protocol.clear()
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
    this.keeper.clearTimer()
    this.keeper.connecting()
    const started = performance.now()
    try {
      const connected = await this.signedIn(() => this.connector.open())
      const active: Active = { ...connected.opened, closing: false }
      if (this.closed) {
        await active.close()
        throw removedError(this.serverId)
      }
      this.toolList = connected.tools
      this.info = connected.serverInfo
      this.watch(active)
      this.active = active
      this.exchanger.measure('connect', 'connect', undefined, performance.now() - started)
      this.keeper.ready()
      this.scheduleProbe()
      return active
    } catch (error) {
      const failure = error as ConsoleError
      if (!this.closed) {
        this.exchanger.measure('connect', 'connect', undefined, performance.now() - started, {
          error: failure.toInfo(),
        })
        if (NEEDS_A_PERSON.has(failure.code)) this.keeper.actionRequired(failure)
        else this.keeper.down(failure, () => void this.connect().catch(() => {}))
      }
      throw failure
    }
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
      this.lost(
        !exit
          ? 'the connection closed'
          : exit.signal
            ? `the server process was killed by ${exit.signal}`
            : `the server process exited with code ${exit.code}`,
      )
    }
    const clientOnError = transport.onerror
    transport.onerror = (error) => {
      clientOnError?.(error)
      this.deps.logger?.debug('transport error', { error })
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
    this.keeper.down(error, () => void this.connect().catch(() => {}))
  }

  private async dropActive(): Promise<void> {
    const active = this.active
    this.active = undefined
    if (!active) return
    active.closing = true
    await active.close()
  }

  // --- calls and probes ---------------------------------------------------------------------

  // Not `async`: it only hands on a promise, and an async wrapper would cost every call three
  // more turns of the microtask queue.
  private call(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<unknown> {
    const attempt = async (): Promise<unknown> => {
      const outcome = await this.exchanger.run(
        method,
        params,
        { ...options, timeoutMs: options.timeoutMs ?? this.timeoutMs },
        { limit: true, connection: () => this.active ?? this.activeForCall() },
      )
      if (outcome.error) {
        // The error a negative probe asked for says the server is well.
        if (outcome.expected) this.afterSuccess()
        else this.afterFailure(outcome.error, outcome.context)
        throw outcome.error
      }
      this.afterSuccess()
      return outcome.result
    }
    // Only a pool that can sign in wraps the call (the wrapper costs every call a promise).
    return this.deps.auth?.signIn ? this.signedIn(attempt) : attempt()
  }

  /**
   * Runs `attempt`; where a person can sign in right away (see `PoolAuth.signIn`) and the
   * attempt needs a sign-in (or a step-up), signs in and tries again, a bounded number of times.
   */
  private async signedIn<T>(attempt: () => Promise<T>): Promise<T> {
    const signIn = this.deps.auth?.signIn
    for (let signIns = 0; ; signIns++) {
      try {
        return await attempt()
      } catch (error) {
        const failure = error as ConsoleError
        if (!signIn || signIns >= MAX_SIGN_INS || this.closed || !isSignInRequired(failure)) {
          throw error
        }
        await signIn(this.serverId, signInRequestOf(failure))
        // Signed in: the next attempt may connect (or use the open Client with the new token).
        if (this.keeper.current.state === 'action_required') {
          if (this.active) this.keeper.ready()
          else this.keeper.connecting()
        }
      }
    }
  }

  private async activeForCall(): Promise<Active> {
    if (this.closed) throw removedError(this.serverId)
    if (this.active) return this.active
    if (this.pending) return this.pending
    const status = this.keeper.current
    // Waiting for a sign-in that happened since (in another process, e.g. `auth login`).
    const signedIn =
      status.state === 'action_required' &&
      status.signInRequired === true &&
      (await this.deps.auth?.hasTokens?.(this.config))
    if (this.closed) throw removedError(this.serverId)
    if (this.active) return this.active
    if (this.pending) return this.pending
    const unavailable = !signedIn && unavailableError(this.serverId, status, this.deps.clock.now())
    if (unavailable) throw unavailable
    return this.connect()
  }

  private afterSuccess(): void {
    const { state } = this.keeper.current
    if ((state === 'down' || state === 'action_required') && this.active) {
      // An HTTP server that came back on the same Client.
      this.keeper.ready()
      this.scheduleProbe()
    } else this.keeper.assess()
  }

  private afterFailure(error: ConsoleError, context: CallContext): void {
    if (this.closed) return
    const active = this.active
    if (context.httpStatus === 401) this.keeper.actionRequired(error)
    else if (active && sessionExpired(active, context, error)) {
      this.lost('the server no longer knows this session')
    } else if (error.code === 'unreachable' && active && this.config.transport !== 'stdio') {
      // The same HTTP Client works again once the server is back: probe it with backoff. A
      // launch server another console started comes back only if this one launches it.
      if (this.config.transport === 'sse' || this.connector.borrowed) {
        this.lost('the server went away')
      } else this.keeper.down(error, () => void this.probe())
    } else this.keeper.assess()
  }

  private scheduleProbe(): void {
    const interval = this.deps.options.probeIntervalMs
    if (interval > 0) this.keeper.schedule(interval, () => void this.probe())
  }

  private async probe(): Promise<void> {
    const active = this.active
    if (!active || this.closed) return
    this.health.checked()
    const outcome = await this.prober.check(active)
    if (this.closed || this.active !== active) return
    const failure = outcome.error
    if (!failure) {
      // A probe carries no user and may not need credentials: only a real call clears
      // `action_required`.
      if (this.keeper.current.state !== 'action_required') this.afterSuccess()
      if (!this.keeper.scheduled) this.scheduleProbe()
    } else if (failure.code === 'unauthorized') {
      this.keeper.actionRequired(failure)
      this.scheduleProbe()
    } else if (sessionExpired(active, outcome.context, failure)) {
      this.lost('the server no longer knows this session')
    } else if (
      failure.code === 'unreachable' &&
      (this.config.transport === 'sse' || this.connector.borrowed)
    ) {
      // A launch server another console started and stopped: connecting again launches one.
      this.lost('the server went away')
    } else this.keeper.down(failure, () => void this.probe())
  }

  // --- helpers ------------------------------------------------------------------------------

  private classify(
    error: unknown,
    context: CallContext,
    timeoutMs?: number,
    used: OpenedClient | undefined = this.active,
  ): ConsoleError {
    // Whatever a call ran into while its server was being removed, the removal is the cause.
    if (this.closed && !context.cancelled && !context.timedOut) return removedError(this.serverId)
    let classified = classifyError(error, {
      serverId: this.serverId,
      operation: context.operation,
      call: context,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(this.config.url ? { url: this.config.url } : {}),
      ...(used?.stdio?.exit ? { exit: used.stdio.exit } : {}),
      origin: this.config.origin,
    })
    // A step-up the SDK did not start (it tries one per challenge until a request succeeds:
    // calls side by side, or the next call on the connection, get a bare 403).
    const stepUp =
      used?.oauth && context.httpStatus === 403 ? stepUpOf(context.challenge) : undefined
    if (stepUp && classified.code === 'unauthorized') {
      classified = signInRequiredError(this.serverId, stepUp, {
        origin: this.config.origin,
      })
    }
    // A server may quote the credentials it got back in its error: never pass them on.
    const redactor = this.deps.redactor
    if (!redactor) return classified
    const info = classified.toInfo()
    const safe = redactor.redact(info)
    return safe === info ? classified : new ConsoleError(safe, { cause: classified.cause })
  }

  /** How long a connect may take: the pool's `connectTimeoutMs`, else the server's own. */
  private get connectTimeoutMs(): number {
    return this.deps.options.connectTimeoutMs ?? this.timeoutMs
  }

  private get timeoutMs(): number {
    return this.config.timeoutMs > 0 ? this.config.timeoutMs : DEFAULT_TIMEOUT_MS
  }
}

/** A streamable HTTP server that answers 404 (or 400 "…session…") to our session id. */
function sessionExpired(active: Active, context: CallContext, error: ConsoleError): boolean {
  if (!active.transport.hasServerSession) return false
  if (context.httpStatus === 404) return true
  return context.httpStatus === 400 && /session/i.test(String((error.cause as Error)?.message))
}
