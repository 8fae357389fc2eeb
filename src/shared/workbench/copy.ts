import {
  keychainMove,
  plaintextSecretReason,
  replaceArgSecrets,
  replaceUrlSecrets,
} from '../config/plaintext-secrets'
import type { WorkbenchCall } from '../ipc/workbench'

/** How the copied command reaches the server. */
export type CopyTarget =
  /** A server of the registry: named by its id (the CLI finds it and its keys). */
  | {
      kind: 'registry'
      transport: 'http' | 'sse' | 'stdio'
      url?: string
      headers: Record<string, string>
    }
  /** A server given by hand: named by how to reach it. */
  | { kind: 'url'; transport: 'http' | 'sse'; url: string; headers: Record<string, string> }
  | { kind: 'stdio'; command: string; args: string[] }

/** The acting user, as `--user` / `--tags` / `--human-uid` and the identity headers. */
export interface CopyUser {
  userId: string
  sessionTags: string[]
  humanUid?: string
}

const REFERENCE = /\$\{(?:keychain|env|session):([^}]+)\}/g
const SENSITIVE_HEADER =
  /^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token)$/i

/** `word` quoted for a POSIX shell (nothing inside expands). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** A placeholder a shell expands from the environment: `${API_KEY}`. */
function placeholder(name: string): string {
  const variable = name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1')
  return `\${${variable.toUpperCase()}}`
}

const doubleQuoted = (text: string): string => `"${text}"`

const escapeForDoubleQuotes = (text: string): string => text.replace(/["\\$`]/g, '\\$&')

/**
 * Text for inside double quotes with each `${keychain:NAME}`-style reference replaced by a
 * shell variable; `quoteWord` quotes the parts between them (for a word the command splits again).
 */
function withPlaceholders(text: string, quoteWord: (part: string) => string = (p) => p): string {
  // With a capture group, split puts each reference's name at the odd indexes.
  return text
    .split(REFERENCE)
    .map((part, i) =>
      i % 2 === 1 ? placeholder(part) : part === '' ? '' : escapeForDoubleQuotes(quoteWord(part)),
    )
    .join('')
}

const hasReference = (text: string): boolean => text.split(REFERENCE).length > 1

/**
 * A header value with every secret replaced by a shell variable: `${keychain:NAME}` references
 * and plaintext values that look like credentials. Returns the text for inside double quotes.
 */
export function headerWithPlaceholders(name: string, value: string): string {
  if (hasReference(value)) return withPlaceholders(value)
  if (SENSITIVE_HEADER.test(name) || plaintextSecretReason(name, value)) {
    const move = keychainMove(name, value)
    return withPlaceholders(move.reference(move.name))
  }
  return escapeForDoubleQuotes(value)
}

const asReference = (name: string): string => `\${keychain:${name}}`

/**
 * A URL as one shell word: single-quoted when it holds no secret, else double-quoted with its
 * password and secret-looking query values (and references) as shell variables.
 */
function urlWord(url: string): string {
  const referenced = replaceUrlSecrets(url, asReference)
  return hasReference(referenced) ? doubleQuoted(withPlaceholders(referenced)) : shellQuote(url)
}

/**
 * A command line as one shell word for `--stdio`: single-quoted when it holds no secret, else
 * double-quoted with each secret-looking argument value a shell variable.
 */
function commandLineWord(command: string, args: string[]): string {
  const words = [command, ...replaceArgSecrets(args, asReference)]
  if (!words.some(hasReference)) return shellQuote(words.map(shellQuote).join(' '))
  return doubleQuoted(words.map((word) => withPlaceholders(word, shellQuote)).join(' '))
}

function userFlags(user: CopyUser | undefined): string[] {
  if (!user) return []
  const flags = ['--user', shellQuote(user.userId)]
  if (user.sessionTags.length > 0)
    flags.push('--tags', shellQuote(JSON.stringify(user.sessionTags)))
  if (user.humanUid) flags.push('--human-uid', shellQuote(user.humanUid))
  return flags
}

/** The call as a `rag-console call …` command line; secrets become shell variables. */
export function cliCommand(call: WorkbenchCall, target: CopyTarget, user?: CopyUser): string {
  const words = ['rag-console', ...userFlags(user), 'call']
  if (target.kind === 'registry') words.push('--server', shellQuote(call.server))
  else if (target.kind === 'stdio') {
    words.push('--stdio', commandLineWord(target.command, target.args))
  } else {
    words.push('--url', urlWord(target.url), '--transport', target.transport)
    for (const [name, value] of Object.entries(target.headers)) {
      words.push('--header', doubleQuoted(`${name}: ${headerWithPlaceholders(name, value)}`))
    }
  }
  words.push('--tool', shellQuote(call.tool))
  if (Object.keys(call.arguments).length > 0) {
    words.push('--args', shellQuote(JSON.stringify(call.arguments)))
  }
  return words.join(' ')
}

/**
 * The call as one cURL POST of `tools/call`, for streamable HTTP servers (SSE and stdio have no
 * single request to show: null). A server that requires a session answers it only after an
 * `initialize`. Secrets become shell variables.
 */
export function curlCommand(
  call: WorkbenchCall,
  target: CopyTarget,
  user?: CopyUser,
): string | null {
  if (target.kind === 'stdio' || target.transport !== 'http' || !target.url) return null
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: call.tool, arguments: call.arguments },
  }
  const headers: [string, string][] = [
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json, text/event-stream'],
  ]
  const lines = [`curl -sS -X POST ${urlWord(target.url)}`]
  for (const [name, value] of headers) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`)
  for (const [name, value] of Object.entries(target.headers)) {
    lines.push(`-H ${doubleQuoted(`${name}: ${headerWithPlaceholders(name, value)}`)}`)
  }
  if (user) {
    lines.push(`-H ${shellQuote(`x-user-id: ${user.userId}`)}`)
    lines.push(`-H ${shellQuote(`x-session-tags: ${JSON.stringify(user.sessionTags)}`)}`)
    if (user.humanUid) lines.push(`-H ${shellQuote(`x-human-uid: ${user.humanUid}`)}`)
  }
  lines.push(`--data-raw ${shellQuote(JSON.stringify(body))}`)
  return lines.join(' \\\n  ')
}
