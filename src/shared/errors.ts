/**
 * Error codes that cross every boundary (IPC, CLI `--json`, audit log) as strings.
 *
 * Call errors from the connection pool:
 * - `timeout`, `cancelled`, `not_connected`, `unreachable`: raised locally by the console;
 * - `unauthorized`, `rate_limited`, `server_error`, `tool_error`, `protocol`: about what a server did.
 * Console errors: `config`, `action_required`, `keychain_unavailable`, `not_found`,
 * `invalid_argument`, `conflict`, `unsupported`, `internal`.
 * A code names the cause, the same on every surface; the table in docs/cli.md (Error codes) is
 * the contract, held by src/test/error-contract.test.ts.
 */
export const ERROR_CODES = [
  'timeout',
  'cancelled',
  'unreachable',
  'unauthorized',
  'rate_limited',
  'protocol',
  'server_error',
  'tool_error',
  'not_connected',
  'config',
  'action_required',
  'keychain_unavailable',
  'not_found',
  'invalid_argument',
  'conflict',
  'unsupported',
  'internal',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** Whether the console itself raised the error or a server sent it. */
export type ErrorOrigin = 'local' | 'server'

/** The serialisable form of every error the console reports. */
export interface ErrorInfo {
  code: ErrorCode
  /** What failed and what to do next, in words a person can act on. */
  message: string
  origin?: ErrorOrigin
  /** The server the error is about, when there is one. */
  server?: string
  details?: Record<string, unknown>
}

const AUTH_WORDS = /unauthori[sz]ed|forbidden|api[ _-]?key|invalid token|token expired|authenticat/i
const RATE_WORDS = /rate[ _-]?limit|too many requests|quota/i

/** What a server's own words about a failure say it was: a refusal, a rate limit, or neither. */
export function codeFromWords(text: string): 'unauthorized' | 'rate_limited' | undefined {
  if (AUTH_WORDS.test(text)) return 'unauthorized'
  if (RATE_WORDS.test(text)) return 'rate_limited'
  return undefined
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value)
}

/** An error with a string code; thrown inside the console, serialised as {@link ErrorInfo}. */
export class ConsoleError extends Error {
  readonly code: ErrorCode
  readonly origin: ErrorOrigin | undefined
  readonly server: string | undefined
  readonly details: Record<string, unknown> | undefined

  constructor(info: ErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options)
    this.name = 'ConsoleError'
    this.code = info.code
    this.origin = info.origin
    this.server = info.server
    this.details = info.details
  }

  toInfo(): ErrorInfo {
    const info: ErrorInfo = { code: this.code, message: this.message }
    if (this.origin) info.origin = this.origin
    if (this.server) info.server = this.server
    if (this.details) info.details = this.details
    return info
  }

  /** Wraps anything thrown into a ConsoleError, keeping one that already is. */
  static from(error: unknown, fallback: ErrorCode = 'internal'): ConsoleError {
    if (error instanceof ConsoleError) return error
    if (isErrorInfo(error)) return new ConsoleError(error)
    const message = error instanceof Error ? error.message : String(error)
    return new ConsoleError({ code: fallback, message }, { cause: error })
  }
}

export function isErrorInfo(value: unknown): value is ErrorInfo {
  return (
    typeof value === 'object' &&
    value !== null &&
    isErrorCode((value as ErrorInfo).code) &&
    typeof (value as ErrorInfo).message === 'string'
  )
}

export function toErrorInfo(error: unknown): ErrorInfo {
  return ConsoleError.from(error).toInfo()
}
