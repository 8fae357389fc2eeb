import { toErrorInfo } from '#shared/errors'
import type { Core } from '#core/core'
import type { CommandOptions } from '../command-table'
import { cliError, type CliContext } from '../context'
import { EXIT, isUnreached, type ExitCode } from '../exit-codes'
import { table } from '../output'
import { cliElicitation } from '../elicit'
import { checkTarget, withTarget, type TargetOptions, type TargetSetup } from './call'

type Row = Record<string, unknown>

/**
 * Runs one listing against a target once it is connected: `list` returns the `--json`
 * document (without `server`) and the text to print for a person.
 */
function inspect(
  command: string,
  ctx: CliContext,
  options: TargetOptions,
  list: (core: Core, server: string) => Promise<{ json: Row; text: string }>,
  setup: TargetSetup = {},
): Promise<ExitCode> {
  checkTarget(command, options)
  return withTarget(
    ctx,
    options,
    async (core, server) => {
      const timeoutMs = ctx.global.timeoutMs
      try {
        await core.pool.session(server, timeoutMs ? { timeoutMs } : {})
      } catch (failure) {
        ctx.out.error(cliError(core, toErrorInfo(failure))!)
        return isUnreached(toErrorInfo(failure)) ? EXIT.unreachable : EXIT.failed
      }
      try {
        const { json, text } = await list(core, server)
        if (ctx.out.json) ctx.out.result({ server, ...json })
        else ctx.out.text(text)
        return EXIT.ok
      } catch (failure) {
        ctx.out.error(cliError(core, toErrorInfo(failure))!)
        return EXIT.failed
      }
    },
    setup,
  )
}

/**
 * A server that offers none of what was asked: said plainly, not as an error (exit 0); `--json`
 * has `offered: false` and the empty lists.
 */
function notOffered(
  server: string,
  feature: 'resources' | 'prompts',
  why: string | undefined,
  empty: Row,
): { json: Row; text: string } {
  return {
    json: { offered: false, ...empty },
    text: `server ${server} offers no ${feature}${why ? ` (${why})` : ''}`,
  }
}

/** Names of a JSON Schema's properties, required ones marked `*`. */
function parameters(schema: unknown): string {
  const { properties, required } = (schema ?? {}) as { properties?: object; required?: unknown }
  const needed = Array.isArray(required) ? required : []
  return Object.keys(properties ?? {})
    .map((name) => (needed.includes(name) ? `${name}*` : name))
    .join(', ')
}

/**
 * `tools TARGET [--elicit MODE]`: the tools with their input schemas. A server may ask for a
 * form while it lists them; `--elicit` says who answers.
 */
export function toolsCommand(
  ctx: CliContext,
  _words: string[],
  options: CommandOptions<'tools'>,
): Promise<ExitCode> {
  const elicit = cliElicitation(ctx, options.elicit)
  return inspect(
    'tools',
    ctx,
    options,
    async (core, server) => {
      const { tools } = await core.pool.tools(server)
      const rows = tools.map((t) => ({
        name: t.name,
        description: t.description ?? null,
        inputSchema: t.inputSchema ?? null,
      }))
      return {
        json: { tools: rows },
        text: table(rows, [
          { header: 'TOOL', cell: (t) => t.name },
          { header: 'PARAMETERS (* required)', cell: (t) => parameters(t.inputSchema), max: 60 },
          { header: 'DESCRIPTION', cell: (t) => t.description, max: 60 },
        ]),
      }
    },
    elicit ? { elicit } : {},
  )
}

/** `resources TARGET`: every resource (all pages) and resource template. */
export function resourcesCommand(
  ctx: CliContext,
  _words: string[],
  options: TargetOptions,
): Promise<ExitCode> {
  return inspect('resources', ctx, options, async (core, server) => {
    const { workbench } = core
    const listed = await workbench.listAll(server, (s, c) => workbench.resources(s, c))
    if (!listed.offered) {
      return notOffered(server, 'resources', listed.why, { resources: [], resourceTemplates: [] })
    }
    const resources = listed.items
    let templates: Row[] = []
    try {
      templates = (await workbench.listAll(server, (s, c) => workbench.resourceTemplates(s, c)))
        .items
    } catch (failure) {
      // Resources without templates are common: say so, and list the resources.
      ctx.out.warn(`${server}: no resource templates (${toErrorInfo(failure).message})`)
    }
    const rows: Row[] = [
      ...resources.map((r) => ({ ...r, uriOrTemplate: r.uri })),
      ...templates.map((t) => ({ ...t, uriOrTemplate: t.uriTemplate })),
    ]
    return {
      json: { offered: true, resources, resourceTemplates: templates },
      text: table(rows, [
        { header: 'URI', cell: (r) => String(r.uriOrTemplate ?? ''), max: 70 },
        { header: 'NAME', cell: (r) => String(r.name ?? '') },
        { header: 'TYPE', cell: (r) => String(r.mimeType ?? '') },
      ]),
    }
  })
}

/** `prompts TARGET`: every prompt (all pages) with its arguments. */
export function promptsCommand(
  ctx: CliContext,
  _words: string[],
  options: TargetOptions,
): Promise<ExitCode> {
  return inspect('prompts', ctx, options, async (core, server) => {
    const { workbench } = core
    const listed = await workbench.listAll(server, (s, c) => workbench.prompts(s, c))
    if (!listed.offered) return notOffered(server, 'prompts', listed.why, { prompts: [] })
    const prompts = listed.items
    const argumentsOf = (prompt: Row): string =>
      (Array.isArray(prompt.arguments) ? (prompt.arguments as Row[]) : [])
        .map((a) => `${String(a.name)}${a.required ? '*' : ''}`)
        .join(', ')
    return {
      json: { offered: true, prompts },
      text: table(prompts, [
        { header: 'PROMPT', cell: (p) => String(p.name ?? '') },
        { header: 'ARGUMENTS (* required)', cell: argumentsOf },
        { header: 'DESCRIPTION', cell: (p) => String(p.description ?? ''), max: 60 },
      ]),
    }
  })
}
