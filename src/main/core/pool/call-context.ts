import type { ActingUser } from '#shared/model/user'

/** A JSON-RPC error object exactly as a server sent it. */
export interface RpcErrorPayload {
  code: number
  message: string
  data?: unknown
}

/**
 * What one pool call (or a connect) is, and what happened to it on the wire. The transport
 * layers fill in the outcome fields; the classifier reads them to say whose fault an error was
 * without guessing from error numbers.
 */
export interface CallContext {
  serverId: string
  operation: string
  /** The JSON-RPC method of a call (not of a connect, which sends several). */
  method?: string
  user?: ActingUser
  /** Aborts this call's HTTP requests (timeout or cancellation). */
  signal?: AbortSignal
  /** JSON-RPC ids this call sent. */
  requestIds: (string | number)[]
  /**
   * Stops the call's deadline until the function it returns is called: the server waits on a
   * person (a form it sent), and that time is theirs. Set by the pool while the call runs.
   */
  hold?: () => () => void
  /** Set by the pool before it aborts the call. */
  timedOut?: boolean
  cancelled?: boolean
  /** Final HTTP status of this call's request, when not 2xx. */
  httpStatus?: number
  /** Seconds, from `Retry-After`. */
  retryAfter?: number
  /** `WWW-Authenticate` of that reply, when it sent one (401, 403). */
  challenge?: string
  /** The HTTP request never got a response (refused, reset, DNS …). */
  networkError?: unknown
  /** The server answered with a JSON-RPC error. */
  serverError?: RpcErrorPayload
  /**
   * The JSON-RPC error in the body of a non-2xx HTTP reply. Kept apart from `serverError`: the
   * SDK fails such a call as an HTTP error, and only the classifier reads it.
   */
  errorBody?: RpcErrorPayload
  /** The server answered with something that is not a usable JSON-RPC reply. */
  protocolError?: string
}

/**
 * Maps the JSON-RPC ids on one connection to the call that sent them, so the transport layers
 * (the HTTP `fetch`, replies on stdio and SSE streams) reach the call their message belongs to.
 *
 * Which call sends a request is known without AsyncLocalStorage, whose promise hooks would tax
 * every promise in the process: the SDK sends a request synchronously inside
 * `Client.request`, so {@link sendAs} marks the call for exactly that moment; the `initialize`
 * of a handshake goes out later, on a connection nothing else uses yet, so the handshake owns
 * the connection while it runs ({@link ownDuring}).
 */
export class CallTracker {
  private readonly calls = new Map<string, CallContext>()
  private sending: CallContext | undefined
  private owner: CallContext | undefined

  /** Runs `send` (a `Client.request`) so the request it sends is bound to `context`. */
  sendAs<T>(context: CallContext, send: () => T): T {
    const previous = this.sending
    this.sending = context
    try {
      return send()
    } finally {
      this.sending = previous
    }
  }

  /** Binds every request sent while `run` is pending to `context` (a handshake). */
  async ownDuring<T>(context: CallContext, run: () => Promise<T>): Promise<T> {
    this.owner = context
    try {
      return await run()
    } finally {
      if (this.owner === context) this.owner = undefined
    }
  }

  /** The call a request being sent right now belongs to, if any. */
  get sender(): CallContext | undefined {
    return this.sending ?? this.owner
  }

  bind(id: string | number, context: CallContext): void {
    this.calls.set(String(id), context)
    context.requestIds.push(id)
  }

  get(id: string | number | undefined): CallContext | undefined {
    return id === undefined ? undefined : this.calls.get(String(id))
  }

  /** Holds the deadline of every call in flight here; the function returned releases them. */
  holdAll(): () => void {
    const releases = [...new Set(this.calls.values())].map((context) => context.hold?.())
    return () => {
      for (const release of releases) release?.()
    }
  }

  /** Forgets every id of a finished call. */
  release(context: CallContext): void {
    for (const id of context.requestIds) this.calls.delete(String(id))
  }

  /** A reply that could not be used: the call fails at once with a `protocol` error. */
  markProtocolError(id: string | number | undefined, problem: string): void {
    const context = this.get(id)
    if (context && !context.protocolError) context.protocolError = problem
  }
}
