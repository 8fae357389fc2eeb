import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RAGBOX_KEYS, RAG_SEARCH_API_KEY } from '#demo/keys'
import { startDemo } from '#test/support/demo/programs'
import type { Entry } from './console'

/** Teams the scale registry's servers belong to (their `groups`, beside `users`). */
export const TEAMS = ['engineering', 'finance', 'legal', 'sales', 'support'] as const

/**
 * The variables the demo's `--registry` file reads its keys from (`${env:…}`; src/demo/endpoints
 * pulls every demo program into this project's types, so the names are written here again: a
 * mismatch leaves those servers asking for their keys and the specs fail).
 */
const DEMO_KEY_ENV = {
  RAG_DEMO_SEARCH_KEY: RAG_SEARCH_API_KEY,
  RAG_DEMO_RAGBOX_KEY: RAGBOX_KEYS.acme,
}

/** A 200-server registry over one multi-endpoint demo process, and how to stop it. */
export interface ScaleDemo {
  registry: Record<string, Entry>
  /** The keys the entries read as `${env:…}`: give them to the host. */
  env: NodeJS.ProcessEnv
  /** Ids of the entries pointing at a port nothing listens on (they end up down). */
  broken: string[]
  stop: () => Promise<void>
}

/**
 * `demo.js all --endpoints N --stdio-servers M`: N HTTP/SSE servers on their own ports and M
 * stdio ones, plus `broken` entries on a closed loopback port, each server in a team's group.
 */
export async function startScaleDemo(
  options: { endpoints?: number; stdio?: number; broken?: number } = {},
): Promise<ScaleDemo> {
  const { endpoints = 186, stdio = 4, broken = 10 } = options
  const dir = mkdtempSync(join(tmpdir(), 'rc-scale-'))
  const file = join(dir, 'rag-mcp.json')
  const demo = await startDemo(
    [
      'all',
      ...['--port-base', '0', '--endpoints', String(endpoints)],
      ...['--stdio-servers', String(stdio), '--registry', file],
      // 40 RAGbox servers share one key: its per-key limit would make them flap.
      ...['--rate-limit', '1000000000', '--query-rate-limit', '1000000000'],
    ],
    60_000,
  )
  const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>
  rmSync(dir, { recursive: true, force: true })
  const registry: Record<string, Entry> = {}
  const team = (i: number): string => TEAMS[i % TEAMS.length]!
  Object.entries(written).forEach(([id, entry], i) => {
    registry[id] = { ...entry, groups: ['users', team(i)] }
  })
  const brokenIds = Array.from({ length: broken }, (_, i) => `offline-${i}`)
  const port = await closedPort()
  brokenIds.forEach((id, i) => {
    registry[id] = {
      url: `http://127.0.0.1:${port}/mcp/${id}`,
      dialect: 'vtex',
      groups: ['users', team(i)],
    }
  })
  return { registry, env: DEMO_KEY_ENV, broken: brokenIds, stop: demo.stop }
}

/** A loopback port that was free a moment ago and that nothing listens on now. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
