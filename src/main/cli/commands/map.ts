import type { GenericSearchMapping } from '#shared/config/schema'
import { toErrorInfo } from '#shared/errors'
import {
  describeSuggestion,
  FIELD_ROLES,
  type FieldRole,
  type MappingChoice,
  type MappingPreview,
} from '#shared/model/mapping'
import { SCORE_ORDERS, type ScoreOrder } from '#shared/model/rag'
import type { ToolInfo } from '#shared/model/server'
import type { Core } from '#core/core'
import { previewMapping, proposeMapping } from '#core/dialects/mapping-proposal'
import { queryArgument, suggestSearchTools } from '#core/dialects/search-suggestion'
import type { RawToolResult, ServerSession } from '#core/pool/types'
import { toolErrorOf } from '#core/dialects/payload'
import { AuditedSession } from '#core/services/audited-session'
import type { CommandOptions } from '../command-table'
import { jsonObject } from '../args'
import {
  cliError,
  currentUser,
  describeDiagnostic,
  diagnosticsJson,
  type CliContext,
} from '../context'
import { EXIT, isUnreached, UsageError, type ExitCode } from '../exit-codes'
import { withTarget } from './call'

/** What `--hits`, `--field role=path` and `--score-order` pick; the rest is guessed. */
export function choiceOf(options: CommandOptions<'map'>): MappingChoice {
  const choice: MappingChoice = {}
  if (options.hits !== undefined) choice.hits = options.hits
  for (const pair of options.field ?? []) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(pair)
    const role = match?.[1] as FieldRole | undefined
    if (!match || !FIELD_ROLES.includes(role!)) {
      throw new UsageError(
        `--field must be ROLE=PATH with ROLE one of ${FIELD_ROLES.join(', ')} (got "${pair}"); an empty PATH maps nothing`,
      )
    }
    choice.fields = { ...choice.fields, [role!]: match[2] === '' ? null : match[2]! }
  }
  const order = options['score-order']
  if (order !== undefined) {
    if (!(SCORE_ORDERS as readonly string[]).includes(order)) {
      throw new UsageError(`--score-order must be ${SCORE_ORDERS.join(' or ')} (got "${order}")`)
    }
    choice.scoreOrder = order as ScoreOrder
  }
  return choice
}

/**
 * `map --server ID --query Q [--tool NAME] [--args JSON] [--hits PATH] [--field ROLE=PATH]...
 * [--score-order ORDER] [--write]`: calls the server's search-like tool (or `--tool`) with the
 * sample query, proposes a generic search mapping from its reply and prints it as JSON, with
 * the hits it makes of that reply on stderr. `--write` saves it as the server's `dialect` in
 * rag-mcp.json with the console's safe save (refused when invalid; redone when the file
 * changed meanwhile), which applies it.
 */
export async function mapCommand(
  ctx: CliContext,
  _words: string[],
  options: CommandOptions<'map'>,
): Promise<ExitCode> {
  if ((options.server?.length ?? 0) !== 1) throw new UsageError('map needs one --server ID')
  const query = options.query
  if (query === undefined || query.trim() === '') {
    throw new UsageError('map needs --query TEXT: a search the server can answer')
  }
  const extra = options.args === undefined ? {} : jsonObject('--args', options.args)
  const choice = choiceOf(options)
  return withTarget(ctx, { server: options.server! }, async (core, server) => {
    let session: ServerSession
    try {
      session = await core.pool.session(
        server,
        ctx.global.timeoutMs ? { timeoutMs: ctx.global.timeoutMs } : {},
      )
    } catch (failure) {
      ctx.out.error(cliError(core, toErrorInfo(failure))!)
      return isUnreached(toErrorInfo(failure)) ? EXIT.unreachable : EXIT.failed
    }
    const tool = chooseTool(ctx, session, options.tool)
    const argument = queryArgument(tool)
    const args = sampleArguments(tool, argument, extra, query)
    const user = currentUser(core)
    // Audited as `call` and the Workbench's calls are: a call made by hand.
    const audited = new AuditedSession(session, core.services.audit, {
      user,
      operation: 'workbench',
      sources: [],
    })
    let raw: RawToolResult
    try {
      raw = await audited.callTool(tool.name, args.values, {
        operation: 'call',
        user,
        ...(ctx.global.timeoutMs ? { timeoutMs: ctx.global.timeoutMs } : {}),
      })
    } catch (failure) {
      await audited.settle({ error: failure })
      ctx.out.error(cliError(core, toErrorInfo(failure))!)
      return EXIT.failed
    }
    const toolError = toolErrorOf(raw, session, tool.name)
    await audited.settle(toolError ? { error: toolError } : {})
    const proposal = proposeMapping(
      raw,
      { tool: tool.name, arguments: args.values, queryArgument: args.argument },
      choice,
    )
    if (proposal.problem !== undefined) {
      const message = `server ${server}: no mapping from ${tool.name}'s reply: ${proposal.problem}`
      ctx.out.error({ code: 'invalid_argument', message }, { candidates: proposal.candidates })
      return EXIT.failed
    }
    const preview = previewMapping(raw, server, proposal.mapping)
    for (const note of proposal.notes) ctx.out.warn(note)
    printPreview(ctx, preview)
    const written = options.write ? await write(ctx, core, server, proposal.mapping) : undefined
    if (ctx.out.json) {
      ctx.out.result({
        server,
        tool: tool.name,
        dialect: { search: proposal.mapping },
        hits: preview.hits.map(({ id, title, uri, score, snippet }) => ({
          id,
          title,
          uri,
          score,
          snippet,
        })),
        count: preview.count,
        violations: preview.violations,
        candidates: proposal.candidates,
        fields: proposal.fields,
        notes: proposal.notes,
        ...(written ? { written: written.json } : {}),
      })
    } else {
      ctx.out.text(JSON.stringify({ dialect: { search: proposal.mapping } }, null, 2))
    }
    return written?.exit ?? (preview.violations.length > 0 ? EXIT.failed : EXIT.ok)
  })
}

/** `--tool`, else the first search-like tool; a usage error that lists the tools otherwise. */
function chooseTool(ctx: CliContext, session: ServerSession, named: string | undefined): ToolInfo {
  const listed = session.tools.map((tool) => tool.name)
  if (named !== undefined) {
    const tool = session.tools.find((candidate) => candidate.name === named)
    if (!tool) {
      throw new UsageError(
        `server ${session.serverId} lists no tool "${named}" (it lists ${listed.join(', ') || 'none'})`,
      )
    }
    return tool
  }
  const [first, ...others] = suggestSearchTools(session.tools)
  if (!first) {
    throw new UsageError(
      `server ${session.serverId} has no search-like tool (it lists ${listed.join(', ') || 'none'}): name one with --tool NAME`,
    )
  }
  const also =
    others.length > 0 ? `; also ${others.map(describeSuggestion).join(', ')} (--tool)` : ''
  ctx.out.progress(`mapping ${describeSuggestion(first)}: ${first.reason}${also}`)
  return session.tools.find((tool) => tool.name === first.tool)!
}

/**
 * The arguments of the sample call: `--args` with the query in the tool's query argument (or in
 * the `--args` value that reads `{query}`), and the template the mapping keeps.
 */
function sampleArguments(
  tool: ToolInfo,
  argument: string | undefined,
  extra: Record<string, unknown>,
  query: string,
): { values: Record<string, unknown>; argument: string } {
  const placeholder = Object.keys(extra).find((key) => extra[key] === '{query}')
  const into = placeholder ?? argument
  if (into === undefined) {
    throw new UsageError(
      `tool ${tool.name} has no argument known to take the query: give --args with "{query}" where it goes, e.g. --args '{"text": "{query}"}'`,
    )
  }
  return { values: { ...extra, [into]: query }, argument: into }
}

async function write(
  ctx: CliContext,
  core: Core,
  server: string,
  mapping: GenericSearchMapping,
): Promise<{ exit: ExitCode; json: Record<string, unknown> }> {
  const result = await core.registry.setField(server, 'dialect', { search: mapping })
  if (result.status === 'saved') {
    ctx.out.progress(
      `saved ${server}'s search mapping to ${result.path}${result.backup ? ` (previous version: ${result.backup})` : ''}`,
    )
    return {
      exit: EXIT.ok,
      json: { path: result.path, ...(result.backup ? { backup: result.backup } : {}) },
    }
  }
  if (result.status === 'invalid') {
    ctx.out.warn(`not saved: the mapping would make ${result.path} invalid`)
    for (const d of result.diagnostics) ctx.out.progress(`  ${describeDiagnostic(d)}`)
    return {
      exit: EXIT.config,
      json: { path: result.path, diagnostics: diagnosticsJson(result.diagnostics) },
    }
  }
  ctx.out.warn(
    `not saved: ${result.path} kept changing while it was being saved; run map --write again`,
  )
  return { exit: EXIT.failed, json: { path: result.path, conflict: true } }
}

function printPreview(ctx: CliContext, preview: MappingPreview): void {
  ctx.out.progress(`${preview.count} hit(s) in the reply through this mapping:`)
  for (const hit of preview.hits.slice(0, 5)) {
    const score = hit.score === undefined ? '' : ` [${hit.score}]`
    ctx.out.progress(`  ${hit.title}${score}${hit.uri ? ` <${hit.uri}>` : ''}`)
  }
  for (const violation of preview.violations.slice(0, 5)) {
    ctx.out.warn(`${violation.path}: ${violation.message}`)
  }
}
