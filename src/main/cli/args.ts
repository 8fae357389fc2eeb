import { parseArgs } from 'node:util'
import type { FusionMode, Selection } from '../../shared/model/operations'
import type { ActingUser } from '../../shared/model/user'
import { UsageError } from './exit-codes'

/** Every option the CLI knows; which command accepts which is in {@link COMMAND_OPTIONS}. */
const OPTIONS = {
  config: { type: 'string' },
  json: { type: 'boolean' },
  user: { type: 'string' },
  tags: { type: 'string' },
  'human-uid': { type: 'string' },
  timeout: { type: 'string' },
  'connect-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  server: { type: 'string', multiple: true },
  source: { type: 'string', multiple: true },
  phrase: { type: 'string', multiple: true },
  'top-k': { type: 'string' },
  fusion: { type: 'string' },
  segment: { type: 'string' },
  url: { type: 'string' },
  transport: { type: 'string' },
  stdio: { type: 'string' },
  tool: { type: 'string' },
  args: { type: 'string' },
  name: { type: 'string' },
  header: { type: 'string', multiple: true },
  oauth: { type: 'string' },
  log: { type: 'boolean' },
  elicit: { type: 'string' },
  'metrics-port': { type: 'string' },
  'metrics-host': { type: 'string' },
  interval: { type: 'string' },
  profile: { type: 'string', multiple: true },
  baseline: { type: 'string' },
  min: { type: 'string', multiple: true },
  format: { type: 'string' },
  k: { type: 'string' },
  qrels: { type: 'string' },
  run: { type: 'string' },
  complete: { type: 'boolean', short: 'c' },
  query: { type: 'string' },
  hits: { type: 'string' },
  field: { type: 'string', multiple: true },
  'score-order': { type: 'string' },
  write: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'keep-plaintext': { type: 'boolean' },
} as const

type OptionName = keyof typeof OPTIONS

const GLOBAL_OPTIONS: OptionName[] = [
  'config',
  'json',
  'user',
  'tags',
  'human-uid',
  'timeout',
  'help',
]

/** The commands and the options each takes besides the global ones. */
export const COMMAND_OPTIONS = {
  info: [],
  servers: [],
  discover: ['server'],
  search: ['server', 'source', 'phrase', 'top-k', 'fusion'],
  synthesize: ['server', 'source', 'top-k'],
  verify: ['server', 'segment', 'url'],
  call: [
    'server',
    'url',
    'transport',
    'stdio',
    'header',
    'oauth',
    'tool',
    'args',
    'log',
    'connect-timeout',
    'elicit',
  ],
  tools: ['server', 'url', 'transport', 'stdio', 'header', 'oauth', 'elicit'],
  resources: ['server', 'url', 'transport', 'stdio', 'header', 'oauth'],
  prompts: ['server', 'url', 'transport', 'stdio', 'header', 'oauth'],
  watch: [],
  secrets: ['server', 'name'],
  doctor: ['server'],
  monitor: ['metrics-port', 'metrics-host', 'interval'],
  eval: [
    'server',
    'source',
    'profile',
    'baseline',
    'min',
    'format',
    'k',
    'fusion',
    'qrels',
    'run',
    'complete',
  ],
  auth: ['server'],
  map: ['server', 'query', 'tool', 'args', 'hits', 'field', 'score-order', 'write'],
  import: ['server', 'dry-run', 'keep-plaintext'],
} as const satisfies Record<string, readonly OptionName[]>

export type CommandName = keyof typeof COMMAND_OPTIONS

/** Options every command takes. */
export interface GlobalOptions {
  configPath?: string
  json: boolean
  /** The fields of the acting user given on the command line (the rest: the active profile). */
  actingUser: Partial<ActingUser>
  /** Per-server time budget in ms. */
  timeoutMs?: number
}

/** A command line, parsed and checked. */
export interface Invocation {
  command: CommandName | undefined
  /** Words after the command (a query, `set`/`delete`/`list`). */
  words: string[]
  global: GlobalOptions
  /** The command's own options, raw. */
  options: {
    server?: string[]
    source?: string[]
    phrase?: string[]
    'top-k'?: string
    fusion?: string
    segment?: string
    url?: string
    transport?: string
    stdio?: string
    tool?: string
    args?: string
    name?: string
    header?: string[]
    log?: boolean
    elicit?: string
    'connect-timeout'?: string
    'metrics-port'?: string
    'metrics-host'?: string
    interval?: string
    profile?: string[]
    baseline?: string
    min?: string[]
    format?: string
    k?: string
    query?: string
    hits?: string
    field?: string[]
    'score-order'?: string
    write?: boolean
    qrels?: string
    run?: string
    complete?: boolean
    'dry-run'?: boolean
    'keep-plaintext'?: boolean
  }
  help: boolean
}

/** Parses argv (without `node` and the script); throws {@link UsageError} on bad input. */
export function parseInvocation(argv: string[]): Invocation {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  const [first, ...words] = positionals
  if (first !== undefined && !(first in COMMAND_OPTIONS)) {
    throw new UsageError(`unknown command "${first}"`)
  }
  const command = first as CommandName | undefined
  if (command) {
    const allowed = new Set<string>([...GLOBAL_OPTIONS, ...COMMAND_OPTIONS[command]])
    const stray = Object.keys(values).filter((key) => !allowed.has(key))
    if (stray.length > 0) {
      throw new UsageError(`${command} does not take ${stray.map((s) => `--${s}`).join(', ')}`)
    }
  }
  const global: GlobalOptions = {
    json: values.json ?? false,
    actingUser: actingUserOf(values),
  }
  if (values.config !== undefined) global.configPath = values.config
  if (values.timeout !== undefined)
    global.timeoutMs = integer('--timeout', values.timeout, 100, 300_000)
  const {
    config: _c,
    json: _j,
    user: _u,
    tags: _t,
    'human-uid': _h,
    timeout: _o,
    help,
    ...options
  } = values
  return { command, words, global, options, help: help ?? false }
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

const FUSIONS: readonly FusionMode[] = ['rrf', 'score', 'minmax']

/** `--fusion`, checked. */
export function fusionOf(text: string | undefined): FusionMode | undefined {
  if (text === undefined) return undefined
  if (!(FUSIONS as readonly string[]).includes(text)) {
    throw new UsageError(`--fusion must be one of ${FUSIONS.join(', ')} (got "${text}")`)
  }
  return text as FusionMode
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
