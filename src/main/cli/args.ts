import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import type { Selection } from '#shared/model/operations'
import type { ActingUser } from '#shared/model/user'
import {
  COMMANDS,
  GLOBAL_OPTIONS,
  type CommandName,
  type CommandOptions,
  type CommandSpec,
  type OptionSpec,
  type OptionValues,
} from './command-table'
import { UsageError } from './exit-codes'

/** The parser's config: every option of the table once (a name means the same everywhere). */
const PARSE_CONFIG = parseConfigOf([
  GLOBAL_OPTIONS,
  ...Object.values(COMMANDS).map((c) => c.options),
])

function parseConfigOf(tables: CommandSpec['options'][]): ParseArgsOptionsConfig {
  const config: ParseArgsOptionsConfig = {}
  const seen = new Map<string, OptionSpec>()
  for (const table of tables) {
    for (const [name, spec] of Object.entries(table)) {
      const known = seen.get(name)
      if (known && (known.type !== spec.type || known.short !== spec.short)) {
        throw new Error(`the command table declares --${name} twice, as two different kinds`)
      }
      seen.set(name, spec)
      config[name] = {
        type: spec.type === 'boolean' ? 'boolean' : 'string',
        ...(spec.type === 'list' ? { multiple: true } : {}),
        ...(spec.short !== undefined ? { short: spec.short } : {}),
      }
    }
  }
  return config
}

type RawValues = Record<string, string | boolean | (string | boolean)[] | undefined>

/** The values of one table's options, typed, checked and defaulted as the table says. */
function valuesOf<Os extends CommandSpec['options']>(table: Os, raw: RawValues): OptionValues<Os> {
  const values: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(table)) {
    const value = raw[name]
    if (value === undefined) {
      if ('default' in spec && spec.default !== undefined) values[name] = spec.default
    } else if (spec.type === 'number') {
      values[name] = integer(`--${name}`, String(value), spec.min, spec.max)
    } else if (spec.type === 'choice' && !spec.choices.includes(String(value))) {
      throw new UsageError(
        `--${name} must be one of ${spec.choices.join(', ')} (got "${String(value)}")`,
      )
    } else {
      values[name] = value
    }
  }
  // The parser's config gives each option the kind the table declares (see parseConfigOf).
  return values as OptionValues<Os>
}

/** Options every command takes. */
export interface GlobalOptions {
  configPath?: string
  json: boolean
  /** The fields of the acting user given on the command line (the rest: the active profile). */
  actingUser: Partial<ActingUser>
  /** Per-server time budget in ms. */
  timeoutMs?: number
}

/** One command with its words and options, as its handler takes them. */
export interface CommandCall<C extends CommandName> {
  command: C
  /** Words after the command (a query, `set`/`delete`/`list`). */
  words: string[]
  options: CommandOptions<C>
}

/** A command line, parsed and checked. */
export interface Invocation {
  /** Undefined when the line names no command. */
  call: CommandCall<CommandName> | undefined
  global: GlobalOptions
  help: boolean
}

/** Parses argv (without `node` and the script); throws {@link UsageError} on bad input. */
export function parseInvocation(argv: string[]): Invocation {
  let parsed: { values: RawValues; positionals: string[] }
  try {
    parsed = parseArgs({ args: argv, options: PARSE_CONFIG, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  const [first, ...words] = positionals
  if (first !== undefined && !isCommand(first)) {
    throw new UsageError(`unknown command "${first}"`)
  }
  if (first !== undefined) {
    const allowed = new Set<string>([
      ...Object.keys(GLOBAL_OPTIONS),
      ...Object.keys(COMMANDS[first].options),
    ])
    const stray = Object.keys(values).filter((key) => !allowed.has(key))
    if (stray.length > 0) {
      throw new UsageError(`${first} does not take ${stray.map((s) => `--${s}`).join(', ')}`)
    }
  }
  const globals = valuesOf(GLOBAL_OPTIONS, values)
  const global: GlobalOptions = {
    json: globals.json ?? false,
    actingUser: actingUserOf(globals),
  }
  if (globals.config !== undefined) global.configPath = globals.config
  if (globals.timeout !== undefined) global.timeoutMs = globals.timeout
  const call = first === undefined ? undefined : callOf(first, words, values)
  return { call, global, help: globals.help ?? false }
}

function isCommand(word: string): word is CommandName {
  return Object.hasOwn(COMMANDS, word)
}

function callOf<C extends CommandName>(
  command: C,
  words: string[],
  raw: RawValues,
): CommandCall<C> {
  const table: (typeof COMMANDS)[C]['options'] = COMMANDS[command].options
  return { command, words, options: valuesOf(table, raw) }
}

function actingUserOf(values: {
  user?: string
  tags?: string
  'human-uid'?: string
}): Partial<ActingUser> {
  const user: Partial<ActingUser> = {}
  if (values.user !== undefined) {
    if (values.user.trim() === '') throw new UsageError('--user is empty')
    user.userId = values.user
  }
  if (values.tags !== undefined) user.sessionTags = stringArray('--tags', values.tags)
  if (values['human-uid'] !== undefined) user.humanUid = values['human-uid']
  return user
}

function stringArray(flag: string, text: string): string[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new UsageError(`${flag} must be a JSON array of strings, e.g. '["department:legal"]'`)
  }
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new UsageError(`${flag} must be a JSON array of strings, e.g. '["department:legal"]'`)
  }
  return value as string[]
}

/** A whole number within bounds, from an option's text. */
export function integer(flag: string, text: string, min: number, max: number): number {
  const value = Number(text)
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${text}")`)
  }
  return value
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** A duration such as `15s`, `500ms`, `2m` or `1h` (a bare number is seconds), within bounds. */
export function duration(flag: string, text: string, minMs: number, maxMs: number): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim())
  const ms = match ? Number(match[1]) * UNITS[match[2] ?? 's']! : NaN
  if (!(ms >= minMs && ms <= maxMs)) {
    throw new UsageError(
      `${flag} must be a duration from ${minMs} ms to ${maxMs / 1000} s, e.g. 15s, 500ms or 2m (got "${text}")`,
    )
  }
  return Math.round(ms)
}

/** The object `--args` carries. */
export function jsonObject(flag: string, text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(
      `${flag} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${flag} must be a JSON object, e.g. '{"query": "vpn"}'`)
  }
  return value as Record<string, unknown>
}

/**
 * `--server ID` and `--source SERVER:SOURCE` as a selection (a server named alone takes its
 * default sources); undefined when neither is given, so the profile's remembered one applies.
 */
export function selectionOf(servers: string[] = [], sources: string[] = []): Selection | undefined {
  if (servers.length === 0 && sources.length === 0) return undefined
  const selection: Selection = {}
  for (const server of servers) selection[server] ??= []
  for (const pair of sources) {
    const colon = pair.indexOf(':')
    if (colon <= 0 || colon === pair.length - 1) {
      throw new UsageError(
        `--source must be SERVER:SOURCE, e.g. companyDocs:handbook (got "${pair}")`,
      )
    }
    const list = (selection[pair.slice(0, colon)] ??= [])
    list.push(pair.slice(colon + 1))
  }
  return selection
}

/**
 * Splits a command line as a POSIX shell would for plain words, single and double quotes and
 * backslash escapes (no variables, globs or operators).
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  let quote: '"' | "'" | undefined
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (quote === "'") {
      if (char === "'") quote = undefined
      else word += char
    } else if (
      char === '\\' &&
      i + 1 < text.length &&
      (quote === undefined || '"\\$`'.includes(text[i + 1]!))
    ) {
      word += text[++i]
      inWord = true
    } else if (quote === '"') {
      if (char === '"') quote = undefined
      else word += char
    } else if (char === '"' || char === "'") {
      quote = char
      inWord = true
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += char
      inWord = true
    }
  }
  if (quote) throw new UsageError(`--stdio has an unclosed ${quote} quote`)
  if (inWord) words.push(word)
  return words
}
