import { RAGBOX_KEYS, RAG_SEARCH_API_KEY } from './keys'
import type { HttpProgram } from './programs'

/** The families a registry meets: four HTTP/SSE programs plus rag-tools-v1 over stdio. */
export const FAMILIES = [
  'rag-search',
  'rag-tools-sse',
  'rag-tools-stdio',
  'ragbox',
  'vtex',
] as const
export type Family = (typeof FAMILIES)[number]

/** The programs `all --endpoints N` cycles through, each endpoint with the family it serves. */
const ENDPOINT_CYCLE: { program: Exclude<HttpProgram, 'doc-host'>; family: Family }[] = [
  { program: 'rag-search', family: 'rag-search' },
  { program: 'rag-tools-v1', family: 'rag-tools-sse' },
  { program: 'ragbox', family: 'ragbox' },
  { program: 'vtex', family: 'vtex' },
]

/** One server of a multi-endpoint demo process: its registry id, program and port. */
export interface Endpoint {
  /** `<family>-<index>`, e.g. `rag-tools-sse-1`: how a registry would list it. */
  id: string
  family: Family
  program: Exclude<HttpProgram, 'doc-host'>
  /** Wanted port (0 = any free port). */
  port: number
  /** How long its tool calls take to answer. */
  latencyMs: number
}

/**
 * `count` endpoints cycling through the HTTP/SSE families, endpoint i on `portBase + 1 + i`
 * (the document host keeps `portBase`); port base 0 puts every endpoint on a free port.
 * Endpoint i answers after `latencies[i % latencies.length]` ms, so one process serves every
 * latency class over every family.
 */
export function planEndpoints(count: number, portBase: number, latencies = [0]): Endpoint[] {
  return Array.from({ length: count }, (_, index) => {
    const { program, family } = ENDPOINT_CYCLE[index % ENDPOINT_CYCLE.length]!
    return {
      id: `${family}-${index}`,
      family,
      program,
      port: portBase && portBase + 1 + index,
      latencyMs: latencies[index % latencies.length] ?? 0,
    }
  })
}

/** The printed line of a started endpoint: `endpoint <id> <program> <url>`. */
export const endpointLine = (id: string, program: string, url: string): string =>
  `endpoint ${id} ${program} ${url}`

/** Reads the endpoint lines a multi-endpoint demo process printed, as id → URL. */
export function endpointUrls(lines: string[]): Map<string, string> {
  const urls = new Map<string, string>()
  for (const line of lines) {
    const match = /^endpoint (\S+) \S+ (http:\/\/\S+)$/.exec(line)
    if (match) urls.set(match[1]!, match[2]!)
  }
  return urls
}

/**
 * Environment variables the entries of {@link demoEntry} read their keys from (`${env:…}`):
 * the public demo keys, kept out of the registry file all the same.
 */
export const DEMO_KEY_ENV = {
  RAG_DEMO_SEARCH_KEY: RAG_SEARCH_API_KEY,
  RAG_DEMO_RAGBOX_KEY: RAGBOX_KEYS.acme,
} as const

/** Where one registry entry points: a URL, or the stdio command of rag-tools-v1. */
export type EntryTarget = { url: string } | { command: string; args: string[] }

/** A rag-mcp.json entry for one family at its target. */
export function demoEntry(family: Family, target: EntryTarget): Record<string, unknown> {
  const common = { groups: ['users'], timeoutMs: 15_000 }
  switch (family) {
    case 'rag-search':
      return {
        ...common,
        transport: 'http',
        ...target,
        headers: { Authorization: 'Bearer ${env:RAG_DEMO_SEARCH_KEY}' },
        dialect: 'rag-search',
        dataSources: [
          { id: 'handbook', name: 'Employee Handbook' },
          { id: 'it-kb', name: 'IT Knowledge Base' },
          { id: 'engineering', name: 'Engineering Wiki', groups: ['engineering'] },
        ],
      }
    case 'rag-tools-sse':
      return { ...common, transport: 'sse', ...target, dialect: 'rag-tools-v1' }
    case 'rag-tools-stdio':
      return { ...common, transport: 'stdio', ...target, dialect: 'rag-tools-v1' }
    case 'ragbox':
      return {
        ...common,
        transport: 'http',
        ...target,
        headers: { 'X-API-Key': '${env:RAG_DEMO_RAGBOX_KEY}' },
        dialect: 'ragbox',
      }
    case 'vtex':
      return { ...common, transport: 'http', ...target, dialect: 'vtex' }
  }
}

/** The stdio command line of rag-tools-v1 citing the given document host. */
export function stdioTarget(
  node: string,
  script: string,
  docHost: string,
  latencyMs = 0,
): EntryTarget {
  const args = [script, 'rag-tools-v1', '--stdio', '--doc-host', docHost]
  return { command: node, args: latencyMs ? [...args, '--latency', String(latencyMs)] : args }
}

/**
 * A rag-mcp.json listing every started endpoint, then `stdio` rag-tools-v1 servers
 * (`rag-tools-stdio-<n>`) the console spawns itself.
 */
export function endpointRegistry(
  started: { id: string; family: Family; url: string }[],
  stdio: { count: number; target: EntryTarget },
): Record<string, Record<string, unknown>> {
  const registry: Record<string, Record<string, unknown>> = {}
  for (const endpoint of started) {
    registry[endpoint.id] = demoEntry(endpoint.family, { url: endpoint.url })
  }
  for (let i = 0; i < stdio.count; i++) {
    registry[`rag-tools-stdio-${started.length + i}`] = demoEntry('rag-tools-stdio', stdio.target)
  }
  return registry
}
