import { performance } from 'node:perf_hooks'
import { toErrorInfo, type ErrorInfo } from '#shared/errors'
import { describeSuggestion } from '#shared/model/mapping'
import type { ServerStatus, ServerSummary } from '#shared/model/server'
import type { Core } from '#core/core'
import { cliError, connectServers, withCore, type CliContext } from '../context'
import { EXIT, exitOf, type ExitCode } from '../exit-codes'
import { ms, table, type CliError } from '../output'

/** One row of `servers --json`. */
export interface ServerRow {
  id: string
  enabled: boolean
  transport: string
  dialect: string | null
  status: string
  tools: string[]
  /** Of a server of no known family: its tools that look like search (`search_docs(query)`). */
  searchable: string[]
  /** One `tools/list` round trip once connected; null when it could not be measured. */
  latencyMs: number | null
  error: CliError | null
}

/** `servers`: connects to every enabled server and reports each one. */
export async function serversCommand(ctx: CliContext): Promise<ExitCode> {
  return withCore(ctx, { demoKeys: true }, async (core) => {
    const ids = await connectServers(core)
    const enabled = core.registry.current().servers.filter((s) => s.enabled)
    const probes = new Map(
      await Promise.all(
        enabled.map(
          async (config) =>
            [
              config.id,
              await probe(core, config.id, ctx.global.timeoutMs ?? config.timeoutMs),
            ] as const,
        ),
      ),
    )
    const summaries = (await core.services.servers.list()).filter((s) => ids.includes(s.id))
    const errors = new Map(
      summaries.map((s) => [s.id, probes.get(s.id)?.error ?? errorOfStatus(s.status)] as const),
    )
    const rows = summaries.map((s) => row(core, s, probes.get(s.id), errors.get(s.id)))
    if (ctx.out.json) ctx.out.result({ servers: rows })
    else ctx.out.text(render(rows))
    if (enabled.length === 0) {
      ctx.out.warn('no enabled server in the registry')
      return EXIT.unreachable
    }
    return exitOf(enabled.map((c) => ({ ok: !errors.get(c.id), error: errors.get(c.id) })))
  })
}

interface Probe {
  latencyMs: number | null
  error?: ErrorInfo
}

/** Waits for the server's connection, then times one `tools/list`. */
async function probe(core: Core, id: string, timeoutMs: number): Promise<Probe> {
  try {
    await core.pool.session(id, { timeoutMs })
  } catch (error) {
    return { latencyMs: null, error: toErrorInfo(error) }
  }
  const started = performance.now()
  try {
    await core.pool.tools(id, { refresh: true })
    return { latencyMs: Math.round(performance.now() - started) }
  } catch (error) {
    return { latencyMs: null, error: toErrorInfo(error) }
  }
}

function row(
  core: Core,
  summary: ServerSummary,
  probed: Probe | undefined,
  error: ErrorInfo | undefined,
): ServerRow {
  return {
    id: summary.id,
    enabled: summary.enabled,
    transport: summary.transport,
    dialect: summary.dialect.id,
    status: summary.status.state,
    tools: summary.tools.map((tool) => tool.name),
    searchable: (summary.searchable ?? []).map(describeSuggestion),
    latencyMs: probed?.latencyMs ?? null,
    error: cliError(core, error),
  }
}

/** What a status says went wrong, if anything. */
function errorOfStatus(status: ServerStatus): ErrorInfo | undefined {
  switch (status.state) {
    case 'down':
      return status.lastError
    case 'degraded':
      return status.lastError ?? { code: 'server_error', message: status.reason }
    case 'action_required':
      return status.lastError ?? { code: 'action_required', message: status.reason }
    case 'connecting':
    case 'ready':
    case 'disabled':
      return undefined
  }
}

function render(rows: ServerRow[]): string {
  const lines = [
    table(rows, [
      { header: 'SERVER', cell: (r) => r.id },
      { header: 'STATUS', cell: (r) => r.status },
      { header: 'TRANSPORT', cell: (r) => r.transport },
      { header: 'DIALECT', cell: (r) => r.dialect },
      { header: 'TOOLS', cell: (r) => r.tools.length, align: 'right' },
      { header: 'LATENCY', cell: (r) => ms(r.latencyMs), align: 'right' },
    ]),
  ]
  for (const r of rows) {
    if (r.error) lines.push(`${r.id}: ${r.error.code}: ${r.error.message}`)
    if (r.searchable.length > 0) {
      lines.push(
        `${r.id}: looks searchable: ${r.searchable.join(', ')}; map it: rag-console map --server ${r.id} --query TEXT`,
      )
    }
  }
  return lines.join('\n')
}
