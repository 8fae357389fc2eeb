import { ConsoleError, type ErrorCode, type ErrorInfo } from '#shared/errors'

/** The CLI's exit codes (documented in the README; keep them stable). */
export const EXIT = {
  /** Everything worked. */
  ok: 0,
  /** The operation ran but something failed: a server errored, a check failed. */
  failed: 1,
  /** Bad command line. */
  usage: 2,
  /** The registry (rag-mcp.json) is invalid. */
  config: 3,
  /** Not one server could be reached. */
  unreachable: 4,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/**
 * A command line the CLI cannot run; exits 2 with the usage text. Its code is
 * `invalid_argument`, or `not_found` for an id the registry lacks.
 */
export class UsageError extends ConsoleError {
  constructor(message: string, code: 'invalid_argument' | 'not_found' = 'invalid_argument') {
    super({ code, message })
    this.name = 'UsageError'
  }
}

/**
 * Errors that mean the console never got an answer from the server: it was not running, not
 * reachable, did not answer in time, or cannot be connected before a secret is set.
 */
const UNREACHED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'unreachable',
  'not_connected',
  'timeout',
  'action_required',
  'keychain_unavailable',
])

/**
 * Whether an error says the server was never reached (see {@link UNREACHED}); a server the
 * console could not start (command not found, missing cwd: a local config error) was not either.
 */
export function isUnreached(error: ErrorInfo | undefined): boolean {
  if (error === undefined) return false
  return UNREACHED.has(error.code) || (error.code === 'config' && error.origin === 'local')
}

/**
 * The exit code of an operation over several servers: 0 when all went well, 4 when none was
 * reached (or there was none to ask), else 1.
 */
export function exitOf(results: { ok: boolean; error?: ErrorInfo | undefined }[]): ExitCode {
  if (results.length === 0) return EXIT.unreachable
  if (results.every((result) => result.ok)) return EXIT.ok
  if (results.every((result) => !result.ok && isUnreached(result.error))) return EXIT.unreachable
  return EXIT.failed
}
