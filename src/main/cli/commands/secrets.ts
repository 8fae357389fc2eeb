import type { CommandOptions } from '../command-table'
import { withCore, type CliContext } from '../context'
import { EXIT, UsageError, type ExitCode } from '../exit-codes'
import { table } from '../output'
import { readSecret, type SecretInput } from '../read-secret'

/**
 * `secrets set|delete SERVER NAME`, `secrets list [SERVER]` (or `--server ID --name NAME`):
 * keychain entries (service `rag-mcp-console`, account `<server>/<name>`). `set` reads the
 * value from stdin and never prints it.
 */
export async function secretsCommand(
  ctx: CliContext,
  words: string[],
  options: CommandOptions<'secrets'>,
  input?: SecretInput,
): Promise<ExitCode> {
  const [action, ...rest] = words
  if ((options.server?.length ?? 0) > 1) throw new UsageError('secrets takes one --server ID')
  if (action === 'list') {
    if (options.name !== undefined) throw new UsageError('secrets list does not take --name')
    const [server, ...extra] = target(action, rest, options.server?.[0])
    if (extra.length > 0) throw new UsageError(`secrets list: unexpected ${extra.join(' ')}`)
    return list(ctx, server)
  }
  if (action !== 'set' && action !== 'delete') {
    throw new UsageError('secrets needs set, delete or list')
  }
  const [server, name, ...extra] = target(action, rest, options.server?.[0], options.name)
  if (extra.length > 0) throw new UsageError(`secrets ${action}: unexpected ${extra.join(' ')}`)
  if (!server || !name) {
    throw new UsageError(`secrets ${action} needs SERVER NAME (or --server ID --name NAME)`)
  }
  // Read before opening the core: nothing else competes for the terminal meanwhile.
  const value =
    action === 'set' ? await readSecret(`value for ${server}/${name} (not shown): `, input) : ''
  return withCore(ctx, { registry: false }, async (core) => {
    const result =
      action === 'set'
        ? (await core.secrets.set(server, name, value), { server, name, present: true })
        : { server, name, deleted: await core.secrets.delete(server, name) }
    if (ctx.out.json) ctx.out.result(result)
    else if ('present' in result) ctx.out.text(`stored ${server}/${name} in the keychain`)
    else
      ctx.out.text(result.deleted ? `deleted ${server}/${name}` : `${server}/${name} was not set`)
    return EXIT.ok
  })
}

/** The server and name as words, or as `--server`/`--name`; mixing both forms is refused. */
function target(action: string, words: string[], ...flags: (string | undefined)[]): string[] {
  const given = flags.filter((flag) => flag !== undefined)
  if (given.length === 0) return words
  if (words.length > 0) {
    throw new UsageError(
      `secrets ${action}: give SERVER and NAME as words or as --server/--name, not both`,
    )
  }
  return flags.map((flag) => flag ?? '')
}

async function list(ctx: CliContext, server: string | undefined): Promise<ExitCode> {
  return withCore(ctx, {}, async (core) => {
    const listed = await core.secrets.list(server)
    const secrets = listed.servers.flatMap((s) =>
      s.refs
        .filter((ref) => ref.kind === 'keychain')
        .map((ref) => ({ server: s.server, name: ref.name, present: ref.present })),
    )
    if (!listed.keychain.available) ctx.out.warn(listed.keychain.error.message)
    if (ctx.out.json) ctx.out.result({ secrets })
    else {
      ctx.out.text(
        table(secrets, [
          { header: 'SERVER', cell: (s) => s.server },
          { header: 'NAME', cell: (s) => s.name },
          {
            header: 'PRESENT',
            cell: (s) => (s.present === null ? 'unknown' : s.present ? 'yes' : 'no'),
          },
        ]),
      )
    }
    return listed.keychain.available ? EXIT.ok : EXIT.failed
  })
}
