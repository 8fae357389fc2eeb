import type { ConsoleError, ErrorInfo } from '#shared/errors'
import { runBounded } from './bounded'
import { trafficOf, type CallObserver } from './call-observer'
import type { CallContext, CallTracker } from './call-context'
import type { Clock } from './clock'
import type { HealthTracker } from './health'
import type { Limiter } from './limiter'
import { rawRequest, type OpenedClient } from './open-client'
import type { CallOptions, RawToolResult } from './types'

/**
 * How one request ended; `error` absent when a reply arrived (an `isError` tool result or a
 * refusal the caller's `judge` found inside the reply included: health records those).
 */
export interface Outcome {
  result?: unknown
  error?: ConsoleError
  /** The error is the answer a negative probe asked for (`expectsError`): not a failure. */
  expected?: true
  context: CallContext
}

export interface ExchangeDeps {
  serverId: string
  clock: Clock
  health: HealthTracker
  tracker: CallTracker
  limiter: Limiter
  transport: 'http' | 'sse' | 'stdio'
  /** Hears of every measured call (metrics, traces). */
  observe?: CallObserver
  /** Turns a failure into a classified error; `used` is the connection it ran on, if any. */
  classify(
    error: unknown,
    context: CallContext,
    timeoutMs: number,
    used?: OpenedClient,
  ): ConsoleError
}

/**
 * Runs single requests for one server: a slot from the concurrency limiter (unless told not
 * to), a connection, the request within its deadline and cancellable, the outcome measured in
 * the server's health (latency from the moment it was sent) and classified. Never throws.
 */
export class Exchanger {
  constructor(private readonly deps: ExchangeDeps) {}

  /** A fresh wire record for a call. */
  context(operation: string, options?: Pick<CallOptions, 'user'>): CallContext {
    const context: CallContext = { serverId: this.deps.serverId, operation, requestIds: [] }
    if (options?.user) context.user = options.user
    return context
  }

  async run(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions & { timeoutMs: number },
    how: {
      limit: boolean
      connection: () => OpenedClient | Promise<OpenedClient>
      /** Failures this accepts say nothing about the server's health: not measured. */
      unmeasured?: (context: CallContext) => boolean
      /** A health probe, not a call anyone asked for. */
      probe?: boolean
    },
  ): Promise<Outcome> {
    const { timeoutMs, operation } = options
    const context = this.context(operation, options)
    context.method = method
    let started = performance.now()
    let release: (() => void) | undefined
    let used: OpenedClient | undefined
    try {
      const result = await runBounded(
        context,
        timeoutMs,
        options.signal,
        this.deps.clock,
        (signal) => {
          const send = (connection: OpenedClient): Promise<unknown> => {
            used = connection
            started = performance.now()
            return rawRequest(connection, context, method, params, signal, timeoutMs)
          }
          // A free slot and a ready connection come as they are: no async step, no extra turns
          // of the event loop before the request is written.
          if (how.limit) release = this.deps.limiter.tryAcquire()
          if (how.limit && !release) {
            return this.deps.limiter.acquire(signal).then((granted) => {
              release = granted
              return this.connected(how.connection(), send)
            })
          }
          return this.connected(how.connection(), send)
        },
      )
      const isError = method === 'tools/call' && (result as RawToolResult | null)?.isError === true
      const refusal = isError ? this.toolError(params) : judged(options.judge, result)
      const ms = performance.now() - started
      const asked = options.expectsError === true
      this.measure(operation, method, params, ms, outcome(refusal, asked, how.probe))
      return { result, context }
    } catch (error) {
      const failure = rejudged(
        options.judgeError,
        this.deps.classify(error, context, timeoutMs, used),
      )
      // A server's answer (not a timeout, a lost connection) is what a negative probe wanted.
      const expected = options.expectsError === true && answered(context)
      if (!how.unmeasured?.(context)) {
        const ms = performance.now() - started
        this.measure(operation, method, params, ms, outcome(failure.toInfo(), expected, how.probe))
      }
      return expected ? { error: failure, expected: true, context } : { error: failure, context }
    } finally {
      release?.()
      this.deps.tracker.release(context)
    }
  }

  private connected(
    connection: OpenedClient | Promise<OpenedClient>,
    send: (connection: OpenedClient) => Promise<unknown>,
  ): Promise<unknown> {
    return connection instanceof Promise ? connection.then(send) : send(connection)
  }

  /** Records a finished call in the server's health and tells the observer. */
  measure(
    operation: string,
    method: string,
    params: Record<string, unknown> | undefined,
    ms: number,
    { error, expected, probe }: Measured = {},
  ): void {
    const traffic = trafficOf(operation, probe)
    this.deps.health.record(operation, ms, error)
    if (!this.deps.observe) return
    const tool =
      method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined
    this.deps.observe({
      server: this.deps.serverId,
      operation,
      method,
      transport: this.deps.transport,
      ms,
      endedAt: this.deps.clock.now(),
      traffic,
      ...(tool === undefined ? {} : { tool }),
      ...(probe ? { probe } : {}),
      ...(expected ? { expected } : {}),
      ...(error ? { code: error.code, ...(error.origin ? { origin: error.origin } : {}) } : {}),
    })
  }

  private toolError(params: Record<string, unknown> | undefined): ErrorInfo {
    const server = this.deps.serverId
    return {
      code: 'tool_error',
      origin: 'server',
      server,
      message: `server ${server}: tool ${String(params?.name)} reported an error`,
    }
  }
}

/** How a measured call ended: its failure, or the error a negative probe expected. */
interface Measured {
  error?: ErrorInfo
  expected?: true
  probe?: boolean
}

/** A call's error as measured: none when it is the one a negative probe asked for. */
function outcome(error: ErrorInfo | undefined, expected: boolean, probe?: boolean): Measured {
  const measured: Measured = probe ? { probe } : {}
  if (error && expected) measured.expected = true
  else if (error) measured.error = error
  return measured
}

/** Whether the server answered the request (with an error), rather than failing to. */
function answered(context: CallContext): boolean {
  return context.serverError !== undefined || (context.httpStatus ?? 0) >= 400
}

/** The refusal a caller's judge finds in a reply; a judge that throws gives no verdict. */
function judged(judge: CallOptions['judge'], result: unknown): ErrorInfo | undefined {
  if (!judge) return undefined
  try {
    return judge(result)
  } catch {
    // The caller parses the reply again and reports what went wrong there.
    return undefined
  }
}

/** The failure as the caller's dialect classifies it; a judge that throws changes nothing. */
function rejudged(judge: CallOptions['judgeError'], failure: ConsoleError): ConsoleError {
  if (!judge) return failure
  try {
    return judge(failure)
  } catch {
    return failure
  }
}
