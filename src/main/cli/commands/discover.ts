import type { ServerDiscovery } from '#shared/model/operations'
import type { CommandOptions } from '../command-table'
import { cliError, connectServers, withCore, type CliContext } from '../context'
import { exitOf, type ExitCode } from '../exit-codes'
import { ms, table } from '../output'

/** `discover [--server ID]…`: data sources per server, as the acting user sees them. */
export async function discoverCommand(
  ctx: CliContext,
  _words: string[],
  options: CommandOptions<'discover'>,
): Promise<ExitCode> {
  return withCore(ctx, { demoKeys: true }, async (core) => {
    await connectServers(core, options.server)
    const result = await core.services.discovery.run({
      ...(options.server ? { servers: options.server } : {}),
      ...(ctx.global.timeoutMs ? { timeoutMs: ctx.global.timeoutMs } : {}),
    })
    const servers = result.servers.map((s) => ({
      server: s.server,
      ok: s.ok,
      error: cliError(core, s.error),
      latencyMs: s.latencyMs,
      sources: s.sources
        .filter((source) => source.visible)
        .map((source) => ({
          id: source.id,
          name: source.name,
          selected: source.selected,
          authRequired: source.authRequired,
          groups: source.groups,
        })),
    }))
    for (const s of result.servers) warnMissing(ctx, s)
    if (ctx.out.json) ctx.out.result({ servers })
    else {
      const rows = servers.flatMap((s) =>
        s.ok
          ? s.sources.map((source) => ({ ...source, server: s.server, latencyMs: s.latencyMs }))
          : [],
      )
      const lines = [
        table(rows, [
          { header: 'SERVER', cell: (r) => r.server },
          { header: 'SOURCE', cell: (r) => r.id },
          { header: 'NAME', cell: (r) => r.name },
          { header: 'SELECTED', cell: (r) => (r.selected ? 'yes' : 'no') },
          { header: 'AUTH', cell: (r) => (r.authRequired ? 'required' : 'none') },
          { header: 'GROUPS', cell: (r) => r.groups.join(',') },
        ]),
        ...servers.map((s) =>
          s.ok
            ? `${s.server}: ${s.sources.length} source(s) in ${ms(s.latencyMs)}`
            : `${s.server}: ${s.error?.code}: ${s.error?.message}`,
        ),
      ]
      ctx.out.text(lines.join('\n'))
    }
    return exitOf(result.servers)
  })
}

function warnMissing(ctx: CliContext, discovery: ServerDiscovery): void {
  if (discovery.missing.length === 0) return
  ctx.out.warn(
    `${discovery.server} no longer reports selected source(s) ${discovery.missing.join(', ')}`,
  )
}
