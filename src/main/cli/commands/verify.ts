import type { AccessCheck, LinkCheck } from '#shared/model/rag'
import type { CommandOptions } from '../command-table'
import { cliError, connectServers, withCore, type CliContext } from '../context'
import { EXIT, isUnreached, UsageError, type ExitCode } from '../exit-codes'
import { ms } from '../output'

/**
 * `verify --server ID [--segment UID] [--url URL]`: does this citation open for the acting
 * user? With both, the verdict is about the link (the one the user clicked), and the server
 * is asked for access and a fresh link.
 */
export async function verifyCommand(
  ctx: CliContext,
  _words: string[],
  options: CommandOptions<'verify'>,
): Promise<ExitCode> {
  const servers = options.server ?? []
  if (servers.length !== 1) throw new UsageError('verify needs exactly one --server ID')
  if (options.segment === undefined && options.url === undefined) {
    throw new UsageError('verify needs --segment UID, --url URL, or both')
  }
  // An empty value is a mistake in the command (an unset shell variable), not a missing link.
  if (options.url?.trim() === '') {
    throw new UsageError(
      "--url is empty: give the link the user clicked (e.g. a hit's uri from `search --json`), or leave --url out to check the segment's own link",
    )
  }
  if (options.segment?.trim() === '') {
    throw new UsageError("--segment is empty: give a segment id (a hit's id from `search --json`)")
  }
  const server = servers[0]!
  return withCore(ctx, { demoKeys: true }, async (core) => {
    if (options.segment !== undefined) await connectServers(core, [server])
    const check = await core.services.access.check(
      {
        server,
        ...(options.segment !== undefined ? { segmentId: options.segment } : {}),
        ...(options.url !== undefined ? { url: options.url } : {}),
      },
      {
        refresh: true,
        ...(ctx.global.timeoutMs ? { timeoutMs: ctx.global.timeoutMs } : {}),
      },
    )
    const access = check.access
      ? {
          checked: check.access.checked,
          hasAccess: check.access.hasAccess,
          refreshedUrl: check.access.refreshedUrl ?? null,
          accessLevel: check.access.accessLevel ?? null,
          error: check.access.error ?? null,
        }
      : null
    const link = check.link ? linkFacts(check.link) : null
    const freshLink = check.freshLink ? linkFacts(check.freshLink) : null
    if (check.error) ctx.out.warn(`${server}: ${cliError(core, check.error)?.message}`)
    if (ctx.out.json) {
      ctx.out.result({
        server,
        segment: options.segment ?? null,
        url: check.url ?? null,
        user: check.user,
        verdict: check.verdict,
        explanation: check.explanation,
        conflict: check.conflict === true,
        access,
        link,
        freshLink,
      })
    } else {
      ctx.out.text(
        [
          `verdict: ${check.verdict} (as ${check.user.userId})`,
          check.explanation,
          access
            ? `server says: ${access.checked ? `access ${access.hasAccess ? 'granted' : 'denied'}${access.accessLevel ? ` (${access.accessLevel})` : ''}` : 'not asked (no verification tool)'}${access.error ? `: ${access.error}` : ''}`
            : 'server says: not asked',
          link ? `link: ${linkLine(link)}` : 'link: none to fetch',
          ...(freshLink ? [`fresh link: ${linkLine(freshLink)}`] : []),
        ].join('\n'),
      )
    }
    return verifyExit(check)
  })
}

function linkFacts(link: LinkCheck) {
  return {
    url: link.url,
    status: link.status ?? null,
    ok: link.ok,
    classification: link.classification,
    latencyMs: link.latencyMs,
    redirects: link.redirects,
  }
}

/** `URL -> 200 ok in 12 ms, 1 redirect(s)` */
function linkLine(link: ReturnType<typeof linkFacts>): string {
  const redirects = link.redirects.length > 1 ? `, ${link.redirects.length - 1} redirect(s)` : ''
  return `${link.url} -> ${link.status ?? 'no answer'} ${link.classification} in ${ms(link.latencyMs)}${redirects}`
}

/** 0 when the link opens and the server (if asked) grants access; 4 when nothing answered. */
function verifyExit(check: AccessCheck): ExitCode {
  const granted = !check.access?.checked || check.access.hasAccess === true
  if (check.verdict === 'ok' && granted && !check.error) return EXIT.ok
  const linkUnreached = !check.link || check.link.classification === 'unreachable'
  if (isUnreached(check.error) && linkUnreached) return EXIT.unreachable
  return EXIT.failed
}
