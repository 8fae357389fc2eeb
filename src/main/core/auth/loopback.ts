import { timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ConsoleError } from '#shared/errors'

/** How long a person has to finish signing in. */
export const SIGN_IN_LIMIT_MS = 5 * 60_000

/** Longer request targets are refused: a real redirect carries a code and a state. */
const MAX_TARGET = 4096

const CALLBACK_PATH = '/callback'

export interface LoopbackOptions {
  /** 0 or absent: a random free port. */
  port?: number
  /** Named on the page the browser shows. */
  serverId: string
  /** How messages name the server (default `server <serverId>`). */
  label?: string
  /** The `state` the redirect must carry (read when it arrives). */
  expectedState: () => string | undefined
  timeoutMs?: number
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  })
  res.end(`${text}\n`)
}

/** The port of a redirect URI this console listens at (`http://127.0.0.1:PORT/callback`). */
export function loopbackPort(uri: string): number | undefined {
  const url = URL.parse(uri)
  const ours = url?.protocol === 'http:' && url.hostname === '127.0.0.1'
  return ours && url.port && url.pathname === CALLBACK_PATH && !url.search
    ? Number(url.port)
    : undefined
}

const labelOf = (options: LoopbackOptions): string => options.label ?? `server ${options.serverId}`

/** Exactly one value of a query parameter, or undefined when it is absent or repeated. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name)
  return values.length === 1 ? values[0] : undefined
}

/**
 * The loopback redirect of one sign-in: `http://127.0.0.1:PORT/callback` takes exactly one
 * redirect carrying the expected `state` and a `code` (or an OAuth `error`), then closes. Any
 * other request (wrong path or method, missing, repeated or oversized parameters, a wrong
 * state) gets 400 and the listener keeps waiting, until the time limit.
 */
export class LoopbackRedirect {
  readonly url: string
  private settle!: { resolve: (code: string) => void; reject: (error: Error) => void }
  private readonly result: Promise<string>
  private readonly timer: NodeJS.Timeout
  private done = false

  private constructor(
    private readonly server: Server,
    private readonly options: LoopbackOptions,
  ) {
    const { port } = server.address() as AddressInfo
    this.url = `http://127.0.0.1:${port}${CALLBACK_PATH}`
    this.result = new Promise<string>((resolve, reject) => {
      this.settle = { resolve, reject }
    })
    // Whoever waits handles it; an unawaited listener must not crash the process.
    this.result.catch(() => undefined)
    const limit = options.timeoutMs ?? SIGN_IN_LIMIT_MS
    this.timer = setTimeout(() => {
      this.finish(
        new ConsoleError({
          code: 'timeout',
          origin: 'local',
          server: options.serverId,
          message: `sign-in to ${labelOf(options)} was not completed within ${Math.round(limit / 1000)} s; start it again`,
        }),
      )
    }, limit)
    this.timer.unref()
    server.on('request', (req, res) => this.handle(req, res))
  }

  /** Listens on 127.0.0.1 (never another interface). */
  static async open(options: LoopbackOptions): Promise<LoopbackRedirect> {
    const server = createServer()
    server.maxHeadersCount = 50
    server.headersTimeout = 10_000
    server.requestTimeout = 10_000
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new ConsoleError({
            code: 'config',
            origin: 'local',
            server: options.serverId,
            message:
              error.code === 'EADDRINUSE'
                ? `the sign-in redirect port ${options.port} of ${labelOf(options)} is in use: free it or change "oauth.redirectPort"`
                : `cannot listen for the sign-in redirect of ${labelOf(options)}: ${error.message}`,
          }),
        ),
      )
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
    })
    return new LoopbackRedirect(server, options)
  }

  /** The authorization code, once the browser comes back; rejects on error, limit or cancel. */
  code(signal?: AbortSignal): Promise<string> {
    if (signal) {
      const onAbort = (): void => this.finish(this.cancelled())
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    }
    return this.result
  }

  /** Stops listening (idempotent); a pending {@link code} rejects as cancelled. */
  close(): void {
    this.finish(this.cancelled())
  }

  private cancelled(): ConsoleError {
    return new ConsoleError({
      code: 'cancelled',
      origin: 'local',
      server: this.options.serverId,
      message: `sign-in to ${labelOf(this.options)} was cancelled`,
    })
  }

  private finish(outcome: Error | { code: string }): void {
    if (this.done) return
    this.done = true
    clearTimeout(this.timer)
    if (outcome instanceof Error) this.settle.reject(outcome)
    else this.settle.resolve(outcome.code)
    this.server.close()
    this.server.closeIdleConnections()
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const target = req.url ?? ''
    if (this.done) return answer(res, 400, 'This sign-in is over. Start it again from the console.')
    if (req.method !== 'GET') return answer(res, 400, 'Only the sign-in redirect is served here.')
    if (target.length > MAX_TARGET) return answer(res, 400, 'Request too long.')
    let url: URL
    try {
      url = new URL(target, 'http://127.0.0.1')
    } catch {
      return answer(res, 400, 'Malformed request.')
    }
    if (url.pathname !== CALLBACK_PATH) {
      return answer(res, 400, 'Only the sign-in redirect is served here.')
    }
    const params = url.searchParams
    const state = single(params, 'state')
    const expected = this.options.expectedState()
    if (state === undefined || expected === undefined || !sameText(state, expected)) {
      return answer(res, 400, 'This redirect does not belong to the sign-in in progress.')
    }
    const code = single(params, 'code')
    const error = single(params, 'error')
    const server = this.options.serverId
    if ((code === undefined) === (error === undefined)) {
      return answer(res, 400, 'The redirect needs exactly one "code" or one "error".')
    }
    if (error !== undefined) {
      const description = single(params, 'error_description')
      const why = `${error}${description ? `: ${description.slice(0, 300)}` : ''}`
      answer(res, 200, `Sign-in to ${server} failed (${why}). You can close this tab.`)
      return this.finish(
        new ConsoleError({
          code: 'unauthorized',
          origin: 'server',
          server,
          message: `sign-in to ${labelOf(this.options)} failed: the authorization server said ${why}`,
        }),
      )
    }
    answer(res, 200, `Signed in to ${server}. You can close this tab.`)
    this.finish({ code: code! })
  }
}
