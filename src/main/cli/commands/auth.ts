import type { OAuthStatus } from '#shared/ipc/auth'
import type { Core } from '#core/core'
import type { CommandOptions } from '../command-table'
import { printOpener, withCore, type CliContext } from '../context'
import { EXIT, isUnreached, UsageError, type ExitCode } from '../exit-codes'
import { table } from '../output'

/**
 * `auth login|logout|status --server ID`: OAuth sign-in of an HTTP / SSE server. `login`
 * prints the authorization URL on stderr and waits (5 minutes at most) for the browser to come
 * back; tokens go to the keychain and are never printed.
 */
export async function authCommand(
  ctx: CliContext,
  words: string[],
  options: CommandOptions<'auth'>,
): Promise<ExitCode> {
  const [action, ...extra] = words
  if (extra.length > 0) throw new UsageError(`auth: unexpected ${extra.join(' ')}`)
  if ((options.server?.length ?? 0) > 1) throw new UsageError('auth takes one --server ID')
  const server = options.server?.[0]
  if (action !== 'login' && action !== 'logout' && action !== 'status') {
    throw new UsageError('auth needs login, logout or status')
  }
  if (!server && action !== 'status') throw new UsageError(`auth ${action} needs --server ID`)
  return withCore(ctx, {}, async (core) => {
    if (server && !core.registry.server(server)) {
      throw new UsageError(`no server "${server}" in ${core.registry.current().source.label}`)
    }
    if (action === 'status') {
      const statuses = await core.auth.status(server)
      if (ctx.out.json) ctx.out.result({ servers: statuses.map(statusJson) })
      else ctx.out.text(statusTable(statuses))
      return EXIT.ok
    }
    const status =
      action === 'login'
        ? await core.auth.login(server!, { reconnect: false, opener: printOpener(ctx, server!) })
        : await core.auth.logout(server!)
    return report(ctx, core, action, status)
  })
}

function report(ctx: CliContext, core: Core, action: string, status: OAuthStatus): ExitCode {
  // A login is done only when it ends signed in; anything else is its failure.
  if (status.state === 'error' || (action === 'login' && status.state !== 'signed_in')) {
    ctx.out.error(
      core.redactor.redact({
        code: status.error?.code ?? 'unauthorized',
        message:
          status.error?.message ??
          `sign-in to server ${status.serverId} did not complete (${status.state.replace(/_/g, ' ')})`,
      }),
    )
    return isUnreached(status.error) ? EXIT.unreachable : EXIT.failed
  }
  if (ctx.out.json) ctx.out.result(statusJson(status))
  else if (action === 'login') {
    ctx.out.text(`signed in to ${status.serverId}${status.account ? ` as ${status.account}` : ''}`)
  } else ctx.out.text(`signed out of ${status.serverId}: its tokens are deleted from the keychain`)
  return EXIT.ok
}

/** The documented `--json` form: no URL (it is only meaningful while signing in). */
function statusJson(status: OAuthStatus): Record<string, unknown> {
  return {
    server: status.serverId,
    state: status.state,
    account: status.account ?? null,
    scopes: status.scopes ?? [],
    expiresAt: status.expiresAt === undefined ? null : new Date(status.expiresAt).toISOString(),
    authorizationServer: status.authorizationServer ?? null,
    ...(status.profileId ? { profile: status.profileId } : {}),
    ...(status.error ? { error: { code: status.error.code, message: status.error.message } } : {}),
  }
}

function statusTable(statuses: OAuthStatus[]): string {
  return table(statuses, [
    { header: 'SERVER', cell: (s) => s.serverId },
    { header: 'SIGN-IN', cell: (s) => s.state.replace(/_/g, ' ') },
    { header: 'ACCOUNT', cell: (s) => s.account ?? '' },
    {
      header: 'EXPIRES',
      cell: (s) => (s.expiresAt === undefined ? '' : new Date(s.expiresAt).toISOString()),
    },
    { header: 'SCOPES', cell: (s) => (s.scopes ?? []).join(' '), max: 40 },
  ])
}
