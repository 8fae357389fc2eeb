import { ConsoleError } from '#shared/errors'
import type {
  ImportApplyResult,
  ImportClient,
  ImportPreview,
  RequiredSecret,
  SecretToMove,
} from '#shared/ipc/registry'
import type { Diagnostic } from '#shared/model/registry'
import { importCandidatePaths } from '#core/config/import'
import type { CommandOptions } from '../command-table'
import { describeDiagnostic, diagnosticsJson, withCore, type CliContext } from '../context'
import { EXIT, UsageError, type ExitCode } from '../exit-codes'
import { table } from '../output'

const CLIENTS: ImportClient[] = ['claude-desktop', 'cursor', 'vscode']

/**
 * `import FILE|claude-desktop|cursor|vscode [--server ID]... [--dry-run] [--keep-plaintext]`:
 * merges the MCP servers of a Claude Desktop, Cursor or VS Code config into the writable
 * rag-mcp.json through the Config panel's own import (the same conversion, validation and safe
 * save; plaintext credentials go to the keychain and the file gets `${keychain:…}` references).
 * `--dry-run` prints what would change and writes nothing.
 */
export async function importCommand(
  ctx: CliContext,
  words: string[],
  options: CommandOptions<'import'>,
): Promise<ExitCode> {
  const [what, ...extra] = words
  if (!what || extra.length > 0) {
    throw new UsageError(`import needs one FILE, or one of ${CLIENTS.join(', ')}`)
  }
  const path = (CLIENTS as string[]).includes(what)
    ? importCandidatePaths(ctx.env).find((candidate) => candidate.client === what)!.path
    : what
  return withCore(ctx, {}, async (core) => {
    const source = { path }
    const preview = await core.registry.previewImport(source)
    const unknown = (options.server ?? []).filter((id) => !preview.servers.some((s) => s.id === id))
    if (unknown.length > 0) {
      throw new UsageError(
        `--server ${unknown.join(', ')}: not in ${preview.from} (it has ${preview.servers.map((s) => s.id).join(', ') || 'no servers'})`,
        'not_found',
      )
    }
    const chosen = (id: string): boolean => !options.server || options.server.includes(id)
    for (const diagnostic of preview.diagnostics) ctx.out.warn(describeDiagnostic(diagnostic))
    if (options['dry-run']) return dryRun(ctx, preview, chosen)
    const result = await core.registry
      .applyImport({
        source,
        baseHash: preview.target.hash,
        ...(options.server ? { servers: options.server } : {}),
        ...(options['keep-plaintext'] ? { keepPlaintext: true } : {}),
      })
      .catch((error: unknown) => {
        const failure = ConsoleError.from(error)
        if (failure.code !== 'keychain_unavailable') throw failure
        throw new ConsoleError({
          ...failure.toInfo(),
          message: `${failure.message}. Nothing was written to ${preview.target.path}; run the import again once the keychain works, or with --keep-plaintext to write the credentials into it as they are`,
        })
      })
    return applied(ctx, preview, result)
  })
}

/** Whether applying would import the server: it changes something and has no error. */
function importable(server: ImportPreview['servers'][number]): boolean {
  return server.status !== 'unchanged' && !server.diagnostics.some((d) => d.severity === 'error')
}

function dryRun(
  ctx: CliContext,
  preview: ImportPreview,
  chosen: (id: string) => boolean,
): ExitCode {
  const servers = preview.servers.filter((s) => chosen(s.id))
  const willImport = servers.filter(importable)
  if (ctx.out.json) {
    ctx.out.result({
      dryRun: true,
      from: preview.from,
      target: preview.target.path,
      servers: servers.map((s) => ({
        id: s.id,
        status: s.status,
        imported: importable(s),
        fields: s.fields,
        diagnostics: diagnosticsJson(s.diagnostics),
      })),
      secretsToMove: preview.secretsToMove.filter((s) => chosen(s.server)),
      requiredSecrets: preview.requiredSecrets.filter((s) => chosen(s.server)),
    })
  } else {
    ctx.out.text(`${preview.from} → ${preview.target.path} (nothing written: --dry-run)`)
    ctx.out.text(
      table(servers, [
        { header: 'SERVER', cell: (s) => s.id },
        { header: 'STATUS', cell: (s) => s.status },
        { header: 'IMPORT', cell: (s) => (importable(s) ? 'yes' : 'no') },
        {
          header: 'TRANSPORT',
          cell: (s) => s.config?.transport ?? String(s.fields.transport ?? ''),
        },
        { header: 'PROBLEMS', cell: (s) => problems(s.diagnostics), max: 80 },
      ]),
    )
    describeSecrets(
      ctx,
      preview.secretsToMove.filter((s) => chosen(s.server)),
      preview.requiredSecrets.filter((s) => chosen(s.server)),
      'would move',
    )
  }
  return willImport.length > 0 ? EXIT.ok : EXIT.failed
}

function applied(ctx: CliContext, preview: ImportPreview, result: ImportApplyResult): ExitCode {
  if (ctx.out.json) {
    const { status, path, imported, movedSecrets, requiredSecrets } = result
    ctx.out.result({
      status,
      from: preview.from,
      path,
      imported,
      movedSecrets,
      requiredSecrets,
      backup: result.status === 'saved' ? (result.backup ?? null) : null,
      diagnostics: result.status === 'invalid' ? diagnosticsJson(result.diagnostics) : [],
    })
  }
  if (result.status === 'invalid') {
    if (!ctx.out.json) {
      ctx.out.error({
        code: 'config',
        message: `nothing was written: ${result.path} would be invalid with these servers`,
      })
      for (const d of result.diagnostics.filter((d) => d.severity === 'error'))
        ctx.out.progress(`  ${describeDiagnostic(d)}`)
    }
    return EXIT.config
  }
  if (result.status === 'conflict') {
    if (!ctx.out.json) {
      ctx.out.error({
        code: 'conflict',
        message: `nothing was written: ${result.path} changed while importing; run the import again`,
      })
    }
    return EXIT.failed
  }
  if (!ctx.out.json) {
    ctx.out.text(`imported ${result.imported.join(', ')} from ${preview.from} into ${result.path}`)
    describeSecrets(ctx, result.movedSecrets, result.requiredSecrets, 'moved')
  }
  return EXIT.ok
}

function problems(diagnostics: Diagnostic[]): string {
  return diagnostics.map((d) => `${d.severity}: ${d.message}`).join('; ')
}

/** The keychain side of an import: what moves (never the values) and what is still to set. */
function describeSecrets(
  ctx: CliContext,
  moved: SecretToMove[],
  required: RequiredSecret[],
  verb: string,
): void {
  for (const s of moved) {
    ctx.out.text(`${verb} ${s.server} ${s.where} to the keychain as ${s.name}`)
  }
  for (const s of required) {
    ctx.out.text(`to set (${s.reason}): rag-console secrets set ${s.server} ${s.name}`)
  }
}
