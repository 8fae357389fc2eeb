import { ConsoleError, type ErrorInfo } from '#shared/errors'
import type { Diagnostic } from '#shared/model/registry'
import type { ActingUser } from '#shared/model/user'
import { createCore, type Core, type CoreOptions } from '#core/core'
import type { MonitoringOptions } from '#core/monitoring/monitoring'
import type { ElicitationHandler } from '#core/pool/elicitation'
import type { PoolOptionsInput } from '#core/pool/options'
import { actingUser } from '#core/services/targets'
import { demoBootstrap } from '../demo-bootstrap/bootstrap'
import type { GlobalOptions } from './args'
import { EXIT, type ExitCode } from './exit-codes'
import { errorJson, type CliError, type Output } from './output'

/** What every command gets: the parsed global options, the output, and a way to open the core. */
export interface CliContext {
  global: GlobalOptions
  out: Output
  env: NodeJS.ProcessEnv
}

/** How a command wants the core. */
export interface OpenOptions {
  /** Connect to servers, and follow the registry's reloads (`watch`). Default: connect nothing. */
  follow?: boolean
  /** Watch rag-mcp.json for changes (`watch`). */
  watch?: boolean
  /**
   * On the embedded registry, run the demo bootstrap: demo profiles, the demo servers' keys, the
   * demo golden set.
   */
  demoKeys?: boolean
  /**
   * Pool tunables; the health probe period defaults to 0 (no probes for one-shot commands).
   */
  pool?: PoolOptionsInput
  /** Metrics, OTLP and canaries, started before the servers connect (`monitor`). */
  monitor?: MonitoringOptions
  /** Answers servers' forms (`--elicit`); without it the pool offers no elicitation. */
  elicit?: ElicitationHandler
}

/**
 * Opens the core for one command: the registry loaded, nothing connected yet (unless
 * `follow`), every later output redacted by its redactor, its notices printed as warnings.
 */
export async function openCore(ctx: CliContext, options: OpenOptions = {}): Promise<Core> {
  const coreOptions: CoreOptions = {
    env: ctx.env,
    watch: options.watch ?? false,
    connect: options.follow ?? false,
    // One-shot commands: no periodic probes keeping the process busy. `--timeout` is the
    // command's budget per server, connects included (a stdio server may start slowly).
    pool: {
      probeIntervalMs: 0,
      ...(ctx.global.timeoutMs ? { connectTimeoutMs: ctx.global.timeoutMs } : {}),
      ...options.pool,
    },
    // The log file keeps everything; stderr gets the CLI's own warnings instead of JSON lines.
    logToStderr: null,
  }
  if (options.demoKeys) coreOptions.demo = demoBootstrap()
  if (options.monitor) coreOptions.monitor = options.monitor
  if (options.elicit) coreOptions.elicit = options.elicit
  if (ctx.global.configPath) coreOptions.configPath = ctx.global.configPath
  if (Object.keys(ctx.global.actingUser).length > 0) coreOptions.actingUser = ctx.global.actingUser
  const core = await createCore(coreOptions)
  ctx.out.useRedactor(core.redactor)
  if (canSignIn(ctx)) {
    core.auth.signIn = async (server, request) => {
      const opener = printOpener(ctx, server)
      const status = await core.auth.login(server, { ...request, reconnect: false, opener })
      if (status.state !== 'signed_in') {
        throw new ConsoleError(
          status.error ?? { code: 'unauthorized', message: `sign-in to ${server} failed` },
        )
      }
    }
  }
  for (const notice of core.info().notices) ctx.out.warn(notice.message)
  if (ctx.global.actingUser.userId !== undefined) ctx.out.progress(actingAs(core))
  return core
}

/** Whom `--user` made the command act as, and where its tags and groups came from. */
function actingAs(core: Core): string {
  const profile = core.actingProfile()
  const active = core.settings.active()
  const saved =
    active.userId === profile.userId
      ? active
      : core.settings.profiles().find((p) => p.userId === profile.userId)
  const tags =
    profile.sessionTags.length > 0 ? `tags: ${profile.sessionTags.join(', ')}` : 'no session tags'
  if (saved) return `acting as ${profile.userId}: the saved profile "${saved.name}" (${tags})`
  const hint = profile.sessionTags.length > 0 ? '' : ' (give them with --tags)'
  return `acting as ${profile.userId}: no saved profile has this user id, so ${tags}${hint}; servers and sources are listed as for the active profile's groups`
}

/** Where the CLI shows an authorization URL: stderr, so `--json` output stays clean. */
export function printOpener(ctx: CliContext, server: string): (url: URL) => void {
  return (url) =>
    ctx.out.progress(
      `to sign in to ${server}, open this URL (waiting up to 5 minutes):\n${url.href}`,
    )
}

/**
 * Whether a command may run a sign-in when a server needs one: a person at a terminal (not
 * `--json`), or the test opener (`RAG_CONSOLE_OAUTH_OPENER=fetch`), which needs nobody. Else the
 * command fails (exit 4) saying to run `rag-console auth login --server ID`.
 */
function canSignIn(ctx: CliContext): boolean {
  if (ctx.env.RAG_CONSOLE_OAUTH_OPENER === 'fetch') return true
  return !ctx.out.json && process.stdin.isTTY === true && process.stderr.isTTY === true
}

/**
 * Runs a command on a core opened for it and always disposes the core. Unless `registry` is
 * false, an invalid registry is reported (exit 3) instead of running `body`.
 */
export async function withCore(
  ctx: CliContext,
  options: OpenOptions & { registry?: boolean },
  body: (core: Core) => Promise<ExitCode>,
): Promise<ExitCode> {
  const core = await openCore(ctx, options)
  try {
    const problems = options.registry === false ? undefined : registryProblems(ctx, core)
    return problems ? reportInvalidConfig(ctx, core, problems) : await body(core)
  } finally {
    await core.dispose()
  }
}

/** The registry's diagnostics when it is invalid, else undefined (warnings are printed). */
export function registryProblems(ctx: CliContext, core: Core): Diagnostic[] | undefined {
  const invalid = core.registry.invalidState()
  if (invalid) return invalid.diagnostics
  for (const warning of core.registry.current().warnings) ctx.out.warn(describeDiagnostic(warning))
  return undefined
}

/** `file:line:column: message` for a person. */
export function describeDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.message}${d.path ? ` (${d.path})` : ''}`
}

/** Diagnostics as `--json` shows them. */
export function diagnosticsJson(diagnostics: Diagnostic[]): Record<string, unknown>[] {
  return diagnostics.map((d) => ({
    severity: d.severity,
    file: d.file,
    path: d.path,
    line: d.line,
    column: d.column,
    message: d.message,
  }))
}

/** Reports an invalid registry (exit 3): every error with its location. */
export function reportInvalidConfig(
  ctx: CliContext,
  core: Core,
  diagnostics: Diagnostic[],
): ExitCode {
  const errors = diagnostics.filter((d) => d.severity === 'error')
  const label = core.registry.current().source.label
  const message = `the registry is invalid (${label}): ${errors.length} error(s); fix them and run again`
  if (ctx.out.json) {
    ctx.out.error({ code: 'config', message }, { diagnostics: diagnosticsJson(diagnostics) })
  } else {
    ctx.out.error({ code: 'config', message })
    for (const d of errors) ctx.out.progress(`  ${describeDiagnostic(d)}`)
  }
  return EXIT.config
}

/** An error as printed: `{code, message}`, credential-shaped text redacted. */
export function cliError(core: Core, error: ErrorInfo | undefined): CliError | null {
  return errorJson(error ? core.redactor.redact(error) : undefined)
}

/** The acting user as operations see it (the profile with the command line's fields). */
export function currentUser(core: Core): ActingUser {
  return actingUser(core.actingProfile())
}

/**
 * Connects the pool to the named servers (all of the registry when none is named) and returns
 * the ids it connects. Unknown ids are left to the operation, which reports them per server.
 */
export async function connectServers(core: Core, ids?: readonly string[]): Promise<string[]> {
  const registry = core.registry.current()
  const servers = ids ? registry.servers.filter((s) => ids.includes(s.id)) : registry.servers
  await core.pool.apply(servers, registry.hashes)
  return servers.map((s) => s.id)
}
