import { join } from 'node:path'
import type { Redactor } from './secrets/types'
import { RotatingFile } from './util/rotating-file'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
  /** A logger that adds these fields to every line (e.g. `{ server: 'docsRag' }`). */
  child(bindings: Record<string, unknown>): Logger
}

export interface LoggerOptions {
  /** JSON lines go to `<dir>/main.log` (rotated at 5 MB, 3 kept); omitted: no file. */
  dir?: string
  level?: LogLevel
  /** Lines at or above this level are also written to stderr; `null` for never. */
  stderrLevel?: LogLevel | null
  redactor?: Redactor
}

/** JSON-lines logger; every line passes through the redactor, so no secret reaches a log. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const file = options.dir
    ? new RotatingFile(join(options.dir, 'main.log'), { maxBytes: 5 * 1024 * 1024, keep: 3 })
    : null
  const level = ORDER[options.level ?? 'info']
  const stderrLevel = options.stderrLevel === null ? Infinity : ORDER[options.stderrLevel ?? 'warn']

  const make = (bindings: Record<string, unknown>): Logger => {
    const write = (lvl: LogLevel, message: string, fields?: Record<string, unknown>): void => {
      if (ORDER[lvl] < level) return
      const entry = { time: new Date().toISOString(), level: lvl, message, ...bindings, ...fields }
      const line = JSON.stringify(
        options.redactor ? options.redactor.redact(entry) : entry,
        errorsAsJson,
      )
      file?.append(`${line}\n`)
      if (ORDER[lvl] >= stderrLevel) process.stderr.write(`${line}\n`)
    }
    return {
      debug: (m, f) => write('debug', m, f),
      info: (m, f) => write('info', m, f),
      warn: (m, f) => write('warn', m, f),
      error: (m, f) => write('error', m, f),
      child: (more) => make({ ...bindings, ...more }),
    }
  }
  return make({})
}

function errorsAsJson(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message }
  return value
}
