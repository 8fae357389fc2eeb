import { fileURLToPath } from 'node:url'
import type { ServerState } from '#shared/model/server'
import type { Core } from '#core/core'
import { SAFETY_NET_MS } from '../process/limits'
import { startChild } from '../process/start-child'
import { untilStatus } from '../pool/helpers'
export { startCore, type LiveCore } from './live-core'

/** The delayed rag-tools-v1 fixture server (`src/test/fixtures/services/rag-fixture.mjs`). */
export const RAG_FIXTURE = fileURLToPath(
  new URL('../../fixtures/services/rag-fixture.mjs', import.meta.url),
)

/**
 * A rag-mcp.json entry running the fixture over stdio with these arguments; it must answer
 * within the safety net unless `extra` sets a `timeoutMs` of its own.
 */
export function fixtureEntry(args: string[], extra: Record<string, unknown> = {}): object {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: [RAG_FIXTURE, ...args],
    dialect: 'rag-tools-v1',
    timeoutMs: SAFETY_NET_MS,
    ...extra,
  }
}

/** A process the test started; `stop` ends it (SIGTERM, then SIGKILL after 3 s). */
export interface Started {
  url: string
  /** Further `<word> <url>` lines it printed, by word (`docs`, …). */
  lines: string[]
  stop(): Promise<void>
}

/**
 * Starts `node <args>` and resolves at the first stdout/stderr line matching `ready`, whose
 * first URL is taken; rejects with its output when it exits or stays silent past the deadline.
 */
export async function startProcess(
  args: string[],
  ready: RegExp,
  timeoutMs = SAFETY_NET_MS,
): Promise<Started> {
  const child = await startChild(
    args,
    (lines) => {
      const line = lines.find((candidate) => ready.test(candidate))
      return line === undefined ? undefined : (/(https?:\/\/\S+)/.exec(line)?.[1] ?? '')
    },
    timeoutMs,
  )
  return { url: child.ready, lines: child.lines, stop: child.stop }
}

/** The fixture over streamable HTTP on a free loopback port. */
export function startHttpFixture(args: string[]): Promise<Started> {
  return startProcess([RAG_FIXTURE, '--http', ...args], /^listening on /)
}

/** A loopback URL nothing listens on (the discard port). */
export const DOWN_URL = 'http://127.0.0.1:9/mcp'

/**
 * Waits until every listed server of the core's pool is in `state` (checked at each change).
 * Without one: until each takes calls, `ready` or `degraded` (on a busy machine calls slow
 * enough to degrade a server are normal).
 */
export function whenState(
  core: Core,
  ids: string[],
  state?: ServerState,
  timeoutMs?: number,
): Promise<true> {
  const usable: ServerState[] = state ? [state] : ['ready', 'degraded']
  return untilStatus(
    core.events,
    () => ids.every((id) => usable.includes(core.pool.status(id).state)),
    `${ids.join(', ')} to be ${usable.join(' or ')}`,
    timeoutMs,
  )
}
