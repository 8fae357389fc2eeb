import { parseRegistryDocument } from '#shared/config/document'
import { normalizeEntry } from '#shared/config/normalize'
import {
  DEFAULT_TIMEOUT_MS,
  oauthSchema,
  type OAuthConfig,
  type ServerConfig,
  type ServerEntry,
} from '#shared/config/schema'
import { CLIENT_SECRET_REF } from '#shared/config/validate'
import { plaintextSecretValues } from '#shared/config/plaintext-secrets'
import { toErrorInfo } from '#shared/errors'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import type { Core } from '#core/core'
import { toolErrorOf } from '#core/dialects/payload'
import { dialectJudges } from '#core/dialects/registry'
import type { RawToolResult, ServerSession } from '#core/pool/types'
import { AuditedSession, attemptEntry, type AuditContext } from '#core/services/audited-session'
import { AD_HOC_ORIGIN } from '#core/auth/sign-in-error'
import { registerHeaderSecrets } from '#core/services/try-servers'
import type { ElicitationHandler } from '#core/pool/elicitation'
import type { CommandOptions, OptionValues, TARGET_OPTIONS } from '../command-table'
import { jsonObject, splitCommandLine } from '../args'
import { cliError, currentUser, withCore, type CliContext } from '../context'
import { cliElicitation } from '../elicit'
import { EXIT, isUnreached, UsageError, type ExitCode } from '../exit-codes'

/** The id an ad-hoc server (`--url`, `--stdio`) gets in the pool, its log and its errors. */
export const AD_HOC_SERVER = 'command-line'

/** The options that name the server (TARGET). */
export type TargetOptions = OptionValues<typeof TARGET_OPTIONS>

/**
 * `call TARGET --tool NAME [--args JSON] [--connect-timeout MS] [--log] [--elicit MODE]`: one
 * `tools/call` to any MCP server, printed as received. `--timeout` bounds the connect and the
 * call; `--connect-timeout` bounds the connect alone (a stdio server can take long to start and
 * still answer its calls at once). `--elicit` says who answers the server's forms.
 */
export async function callCommand(
  ctx: CliContext,
  _words: string[],
  options: CommandOptions<'call'>,
): Promise<ExitCode> {
  checkTarget('call', options)
  const tool = options.tool
  if (!tool) throw new UsageError('call needs --tool NAME')
  const args = options.args === undefined ? {} : jsonObject('--args', options.args)
  const elicit = cliElicitation(ctx, options.elicit)
  const connectMs = options['connect-timeout'] ?? ctx.global.timeoutMs
  const budget: Budget = {
    connectMs,
    callMs: ctx.global.timeoutMs ?? (options.server ? undefined : DEFAULT_TIMEOUT_MS),
  }
  // The ad-hoc server's own timeoutMs bounds its handshake; its call gets the call budget.
  return withTarget(
    ctx,
    options,
    async (core, server) => {
      try {
        return await callOnce(ctx, core, server, tool, args, budget)
      } finally {
        if (options.log) printProtocolLog(ctx, core.pool.protocol(server).list())
      }
    },
    { timeoutMs: connectMs, ...(elicit ? { elicit } : {}) },
  )
}

/** Refuses anything but exactly one way of naming the server. */
export function checkTarget(command: string, options: TargetOptions): void {
  const targets = [options.server?.length ? 1 : 0, options.url ? 1 : 0, options.stdio ? 1 : 0]
  if ((options.server?.length ?? 0) > 1 || targets.reduce((a, b) => a + b, 0) !== 1) {
    throw new UsageError(`${command} needs exactly one of --server ID, --url URL or --stdio "CMD"`)
  }
  if (options.transport !== undefined && !options.url) {
    throw new UsageError('--transport goes with --url')
  }
  if (options.header !== undefined && !options.url) throw new UsageError('--header goes with --url')
  if (options.oauth !== undefined && !options.url) throw new UsageError('--oauth goes with --url')
}

/** How {@link withTarget} opens the server. */
export interface TargetSetup {
  /** The ad-hoc server's `timeoutMs` (default: `--timeout`). */
  timeoutMs?: number | undefined
  /** Answers the server's forms; without it none are offered. */
  elicit?: ElicitationHandler
}

/**
 * Runs `body` with the named server in the pool: a registry server (the registry must be
 * valid), or an ad-hoc one from the command line (no registry needed; its credential-looking
 * header values are redacted from everything printed).
 */
export function withTarget(
  ctx: CliContext,
  options: TargetOptions,
  body: (core: Core, server: string) => Promise<ExitCode>,
  setup: TargetSetup = {},
): Promise<ExitCode> {
  const timeoutMs = 'timeoutMs' in setup ? setup.timeoutMs : ctx.global.timeoutMs
  const adHoc = options.server ? undefined : adHocServer(options, timeoutMs)
  const open = {
    demoKeys: !adHoc,
    registry: !adHoc,
    ...(setup.elicit ? { elicit: setup.elicit } : {}),
    // A registry server's connect gets the same budget as an ad-hoc one's.
    ...(timeoutMs ? { pool: { probeIntervalMs: 0, connectTimeoutMs: timeoutMs } } : {}),
  }
  return withCore(ctx, open, async (core) => {
    let server: string
    if (adHoc) {
      registerHeaderSecrets(core.redactor, adHoc.headers)
      for (const value of plaintextSecretValues(adHoc)) core.redactor.add(value)
      await core.pool.apply([adHoc])
      server = adHoc.id
    } else {
      server = options.server![0]!
      const config = core.registry.server(server)
      if (!config) {
        throw new UsageError(
          `no server "${server}" in ${core.registry.current().source.label}; check the id`,
          'not_found',
        )
      }
      await core.pool.apply([config], core.registry.current().hashes)
    }
    return body(core, server)
  })
}

/** The protocol log on stderr: one JSON line per entry with --json, else one readable line. */
function printProtocolLog(ctx: CliContext, entries: ProtocolEntry[]): void {
  for (const entry of entries) {
    ctx.out.progress(ctx.out.json ? JSON.stringify(entry) : describeEntry(entry))
  }
}

const ARROWS = { out: '→', in: '←', stderr: '!' } as const

/** `→ request tools/call #2 (120 B) HTTP 200 x-user-id=bob` */
export function describeEntry(entry: ProtocolEntry): string {
  const parts = [
    new Date(entry.at).toISOString().slice(11, 23),
    ARROWS[entry.direction],
    entry.kind,
  ]
  if (entry.kind === 'stderr' || entry.kind === 'note') return `${parts.join(' ')} ${entry.text}`
  if (entry.method) parts.push(entry.method)
  if (entry.id !== undefined) parts.push(`#${entry.id}`)
  if (entry.level) parts.push(`[${entry.level}]`)
  parts.push(`(${entry.size} B)`)
  if (entry.durationMs !== undefined) parts.push(`${Math.round(entry.durationMs)} ms`)
  if (entry.httpStatus !== undefined) parts.push(`HTTP ${entry.httpStatus}`)
  for (const [name, value] of Object.entries(entry.headers ?? {})) parts.push(`${name}=${value}`)
  return parts.join(' ')
}

/** Time budgets in ms; undefined: the server's own `timeoutMs`. */
interface Budget {
  connectMs: number | undefined
  callMs: number | undefined
}

async function callOnce(
  ctx: CliContext,
  core: Core,
  server: string,
  tool: string,
  args: Record<string, unknown>,
  { connectMs, callMs }: Budget,
): Promise<ExitCode> {
  const fail = (failure: unknown, code: ExitCode): ExitCode => {
    ctx.out.error(cliError(core, toErrorInfo(failure))!)
    return code
  }
  const user = currentUser(core)
  // Audited as the workbench's calls are: this is its call from a terminal.
  const audit: AuditContext = { user, operation: 'workbench', sources: [] }
  let session: ServerSession
  try {
    session = await core.pool.session(server, connectMs ? { timeoutMs: connectMs } : {})
  } catch (failure) {
    // A disabled server was not attempted; any other failure to connect was.
    if (core.pool.status(server).state !== 'disabled') {
      core.services.audit.record(attemptEntry(server, audit, { error: failure }, Date.now()))
    }
    return fail(failure, isUnreached(toErrorInfo(failure)) ? EXIT.unreachable : EXIT.failed)
  }
  const audited = new AuditedSession(session, core.services.audit, audit)
  let result: RawToolResult
  try {
    result = await audited.callTool(tool, args, {
      ...dialectJudges(session),
      operation: 'call',
      user,
      ...(callMs ? { timeoutMs: callMs } : {}),
    })
  } catch (failure) {
    await audited.settle({ error: failure })
    // Connected, so the server was reached: a refused, failed or unanswered call is a failure.
    return fail(failure, EXIT.failed)
  }
  const toolError = toolErrorOf(result, session, tool)
  await audited.settle(toolError ? { error: toolError } : {})
  if (ctx.out.json) ctx.out.result(result)
  else ctx.out.text(JSON.stringify(result, null, 2))
  if (result.isError) {
    ctx.out.warn(`${server}: ${tool} answered with isError: true`)
    return EXIT.failed
  }
  return EXIT.ok
}

/** A server given on the command line, with every default a registry entry gets. */
function adHocServer(options: TargetOptions, timeoutMs: number | undefined): ServerConfig {
  const entry = (fields: ServerEntry): ServerConfig =>
    normalizeEntry(
      AD_HOC_SERVER,
      { ...fields, ...(timeoutMs ? { timeoutMs } : {}) },
      {
        origin: AD_HOC_ORIGIN,
        inputDocs: () => parseRegistryDocument('command line', '{}'),
      },
    )
  if (options.stdio !== undefined) {
    const [command, ...args] = splitCommandLine(options.stdio)
    if (!command) throw new UsageError('--stdio needs a command, e.g. --stdio "node server.js"')
    return entry({ transport: 'stdio', command, args, cwd: process.cwd() })
  }
  const url = options.url!
  let parsed: URL
  try {
    parsed = new URL(url)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http')
  } catch {
    throw new UsageError(`--url must be an http(s) URL (got "${url}")`)
  }
  // Never echoed: the password would land in the terminal's scrollback and in CI logs.
  if (parsed.username || parsed.password) {
    throw new UsageError(
      '--url must not carry a user name or password (HTTP clients do not send them)',
    )
  }
  const path = parsed.pathname
  const transport = options.transport ?? (/\/sse\/?$/.test(path) ? 'sse' : 'http')
  const oauth = options.oauth === undefined ? {} : { oauth: oauthOf(options.oauth) }
  return entry({ transport, url, headers: headersOf(options.header ?? []), ...oauth })
}

/** `--oauth JSON`: an `oauth` block as rag-mcp.json has it; secrets only by reference. */
function oauthOf(text: string): OAuthConfig {
  const parsed = oauthSchema.safeParse(jsonObject('--oauth', text))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new UsageError(`--oauth: ${issue.path.join('.') || 'value'}: ${issue.message}`)
  }
  const secret = parsed.data.clientSecret
  if (secret !== undefined && !CLIENT_SECRET_REF.test(secret)) {
    throw new UsageError(
      '--oauth: clientSecret must be a reference such as "${env:CLIENT_SECRET}", never the secret itself',
    )
  }
  return parsed.data
}

/** `--header "NAME: VALUE"` (or `NAME=VALUE`), as a header map. */
function headersOf(flags: string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const flag of flags) {
    const match = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*[:=]\s?(.*)$/.exec(flag)
    if (!match) throw new UsageError(`--header must be "NAME: VALUE" (got a value without a name)`)
    headers[match[1]!] = match[2]!
  }
  return headers
}
