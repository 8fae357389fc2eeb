import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEMO_USERS } from '#demo/access'
import { DEMO_KEY_ENV, FAMILIES, demoEntry, stdioTarget, type Family } from '#demo/endpoints'
import type { Core, CoreOptions } from '#core/core'
import { startCore, type LiveCore } from '#test/support/core/live-core'
import type { SearchResult } from '#shared/model/operations'
import { startChild } from '#test/support/process/start-child'
import { until } from './harness'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** The built demo programs (`npm run bench` builds them first). */
export function demoScript(): string {
  const script = join(root, 'out/main/demo.js')
  if (!existsSync(script)) throw new Error(`${script} is missing: run npm run build first`)
  return script
}

/** One `demo.js all` process on free loopback ports; stdio servers are spawned by the pool. */
export interface DemoServers {
  urls: Record<'doc-host' | 'rag-search' | 'rag-tools-v1' | 'ragbox' | 'vtex', string>
  stop(): Promise<void>
}

const PROGRAMS = ['doc-host', 'rag-search', 'rag-tools-v1', 'ragbox', 'vtex'] as const

/** The programs' URLs once `demo.js all` printed its `ready` line (it lists them before). */
export function programUrls(lines: string[]): DemoServers['urls'] | undefined {
  if (!lines.some((line) => line.startsWith('ready '))) return undefined
  const urls: Record<string, string> = {}
  for (const line of lines) {
    const match = /^(\S+)\s+(http:\/\/\S+)/.exec(line)
    if (match && (PROGRAMS as readonly string[]).includes(match[1]!)) {
      urls[match[1]!] = match[2]!.replace(/\/$/, '')
    }
  }
  const missing = PROGRAMS.filter((program) => !urls[program])
  if (missing.length) throw new Error(`demo servers: no URL printed for ${missing.join(', ')}`)
  return urls as DemoServers['urls']
}

/**
 * Starts every HTTP/SSE demo program in one process. RAGbox's 60 requests/minute per key
 * would turn a benchmark into a rate-limit test, so it is raised out of the way here.
 */
export async function startDemoServers(): Promise<DemoServers> {
  const child = await startChild(
    [demoScript(), 'all', '--port-base', '0', '--rate-limit', '1000000000'],
    programUrls,
  )
  return { urls: child.ready, stop: child.stop }
}

/** A rag-mcp.json entry for one family against the running demo programs. */
export function demoEntryFor(family: Family, demo: DemoServers): Record<string, unknown> {
  switch (family) {
    case 'rag-search':
      return demoEntry(family, { url: demo.urls['rag-search'] })
    case 'rag-tools-sse':
      return demoEntry(family, { url: demo.urls['rag-tools-v1'] })
    case 'rag-tools-stdio':
      return demoEntry(family, stdioTarget(process.execPath, demoScript(), demo.urls['doc-host']))
    case 'ragbox':
      return demoEntry(family, { url: demo.urls.ragbox })
    case 'vtex':
      return demoEntry(family, { url: demo.urls.vtex })
  }
}

/** `count` servers cycling through the families: `rag-search-0`, `rag-tools-sse-1`, … */
export function demoRegistry(
  demo: DemoServers,
  count: number,
  families: readonly Family[] = FAMILIES,
): Record<string, Record<string, unknown>> {
  const servers: Record<string, Record<string, unknown>> = {}
  for (let i = 0; i < count; i++) {
    const family = families[i % families.length]!
    servers[`${family}-${i}`] = demoEntryFor(family, demo)
  }
  return servers
}

/**
 * The sources a benchmark search selects per family: what the family serves Bob, minus the
 * SSE server's archived wiki, whose backend is offline on purpose (its error is demo content,
 * not a console failure). Empty: the server's own default.
 */
const FAMILY_SOURCES: Record<Family, string[]> = {
  'rag-search': [],
  'rag-tools-sse': ['it-kb', 'engineering', 'product'],
  'rag-tools-stdio': ['handbook'],
  ragbox: [],
  vtex: [],
}

/** A search selection naming every server of a {@link demoRegistry} with its family's sources. */
export function demoSelection(ids: string[]): Record<string, string[]> {
  return Object.fromEntries(
    ids.map((id) => {
      const family = FAMILIES.find((name) => id.startsWith(`${name}-`))
      if (!family) throw new Error(`${id} is not a demo registry id`)
      return [id, FAMILY_SOURCES[family]]
    }),
  )
}

/** Bob (users, engineering): a demo user every family answers without a refusal. */
const BENCH_USER = DEMO_USERS.find((user) => user.id === 'bob@example.com')!

/** Makes the bench user (Bob) the console's acting profile. */
export function actAsBenchUser(core: Core): void {
  core.settings.saveProfile({
    id: 'bench',
    name: 'Bench (Bob)',
    userId: BENCH_USER.id,
    sessionTags: BENCH_USER.sessionTags,
    groups: BENCH_USER.groups,
  })
  core.settings.setActive('bench')
}

/**
 * A whole console (temporary data folder, the given registry) acting as a demo user, once
 * every server is connected and its sources discovered.
 */
export async function startDemoCore(
  registry: Record<string, unknown>,
  options: Partial<CoreOptions> = {},
): Promise<LiveCore> {
  const live = await startCore(registry, { env: { ...DEMO_KEY_ENV }, ...options })
  try {
    const { core } = live
    actAsBenchUser(core)
    await whenReady(core, Object.keys(registry))
    await core.services.discovery.run()
  } catch (error) {
    await live.close()
    throw error
  }
  return live
}

/** A server's state; one the pool has yet to add (a registry being applied) is not ready. */
function stateOf(core: Core, id: string): string {
  try {
    const status = core.pool.status(id)
    if (status.state === 'connecting') return `connecting (attempt ${status.attempt})`
    const error = 'lastError' in status ? status.lastError : undefined
    return error ? `${status.state} (${error.code}: ${error.message})` : status.state
  } catch {
    return 'not in the pool'
  }
}

/** Waits until every listed server is connected. */
export function whenReady(core: Core, ids: string[], timeoutMs = 30_000): Promise<void> {
  return until(
    () => ids.every((id) => stateOf(core, id) === 'ready'),
    timeoutMs,
    () =>
      `servers ready (${ids
        .filter((id) => stateOf(core, id) !== 'ready')
        .slice(0, 10)
        .map((id) => `${id}: ${stateOf(core, id)}`)
        .join(', ')})`,
  )
}

/** Every server-level and source-level error of a search, as `server: code`. */
export function searchErrors(result: SearchResult, expected: string[]): string[] {
  const answered = new Set(result.servers.map((server) => server.server))
  return [
    ...expected.filter((id) => !answered.has(id)).map((id) => `${id}: missing from the result`),
    ...result.servers.flatMap((server) => [
      ...(server.ok ? [] : [`${server.server}: ${server.error?.code ?? 'failed'}`]),
      ...server.sourceErrors.map((e) => `${server.server}/${e.sourceId}: ${e.error.code}`),
    ]),
  ]
}

/** Queries the demo corpus answers in every family. */
export const QUERIES = [
  'vpn setup',
  'paid time off policy',
  'incident response',
  'password reset',
  'expense report',
  'deployment runbook',
  'laptop security',
  'onboarding checklist',
]
