import type { ServerStatus } from '#shared/model/server'
import type { Diagnostic } from '#shared/model/registry'
import type { Core } from '#core/core'
import {
  cliError,
  describeDiagnostic,
  diagnosticsJson,
  openCore,
  type CliContext,
} from '../context'
import { EXIT, type ExitCode } from '../exit-codes'

/**
 * `watch`: stays running, following rag-mcp.json and the servers' connections; prints one
 * line per event (`loaded`, `reloaded`, `invalid`, `status`) until SIGINT or SIGTERM, or until
 * a line finds its reader gone (exit 0). An
 * invalid file is reported and watched until it is fixed, never fatal.
 */
export async function watchCommand(ctx: CliContext): Promise<ExitCode> {
  const core = await openCore(ctx, { follow: true, watch: true, demoKeys: true })
  const stop = followRegistry(core, eventPrinter(ctx))
  await untilStopped()
  stop()
  await core.dispose()
  return EXIT.ok
}

/** Prints one event: its JSON with `--json`, else a timestamped line for a person. */
export function eventPrinter(ctx: CliContext): Print {
  return (event, human) => {
    if (ctx.out.json) ctx.out.line(event)
    else ctx.out.text(`${new Date().toISOString()} ${human}`)
  }
}

/**
 * Prints the registry as loaded and every server's status, then one line per reload, invalid
 * file and status change; returns the unsubscribe.
 */
export function followRegistry(core: Core, print: Print): () => void {
  const registry = core.registry.current()
  const invalid = core.registry.invalidState()
  if (invalid) printInvalid(print, invalid.diagnostics)
  else {
    const servers = registry.servers.map((s) => s.id)
    print(
      { event: 'loaded', source: registry.source.label, servers },
      `loaded ${registry.source.label}: ${servers.length} server(s) ${servers.join(', ')}`,
    )
  }
  const stops = [
    core.events.on('registry:updated', (e) => {
      const diff = {
        added: e.added,
        removed: e.removed,
        changed: e.changed,
        unchanged: e.unchanged,
      }
      print(
        { event: 'reloaded', ...diff, durationMs: round(e.durationMs) },
        `reloaded in ${round(e.durationMs)} ms: added ${list(e.added)}, removed ${list(e.removed)}, changed ${list(e.changed)}, unchanged ${e.unchanged.length}`,
      )
    }),
    core.events.on('config:invalid', (e) => printInvalid(print, e.diagnostics)),
    core.events.on('server:status', (e) => printStatus(core, print, e.server, e.status)),
  ]
  for (const { server, status } of core.pool.statuses()) printStatus(core, print, server, status)
  return () => {
    for (const stop of stops) stop()
  }
}

/** Resolves on SIGINT or SIGTERM, or when stdout's reader went away (`| head`). */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
    // The reader went away: no line can be delivered any more, so the command ends.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') resolve()
    })
  })
}

export type Print = (event: Record<string, unknown>, human: string) => void

function printInvalid(print: Print, diagnostics: Diagnostic[]): void {
  const errors = diagnostics.filter((d) => d.severity === 'error')
  print(
    { event: 'invalid', diagnostics: diagnosticsJson(diagnostics) },
    `invalid: ${errors.length} error(s), keeping the last good registry\n${errors.map((d) => `  ${describeDiagnostic(d)}`).join('\n')}`,
  )
}

function printStatus(core: Core, print: Print, server: string, status: ServerStatus): void {
  const error = cliError(core, 'lastError' in status ? status.lastError : undefined)
  print(
    { event: 'status', server, status: status.state, error },
    `status ${server}: ${status.state}${error ? ` (${error.code}: ${error.message})` : ''}`,
  )
}

export const round = (value: number): number => Math.round(value * 10) / 10
const list = (ids: string[]): string => (ids.length > 0 ? ids.join(', ') : 'none')
