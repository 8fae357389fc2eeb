import { parseArgs } from 'node:util'
import { BREAKS } from './breaks'

/** Programs `demo.js` runs. */
export const COMMANDS = [
  'rag-search',
  'rag-tools-v1',
  'ragbox',
  'vtex',
  'oauth',
  'doc-host',
  'all',
  'keys',
  'users',
] as const
export type Command = (typeof COMMANDS)[number]

/** Default first port; override with RAG_DEMO_PORT_BASE or `all --port-base`. */
export const DEFAULT_PORT_BASE = 47310

/** Port offsets from the base, one per HTTP/SSE program. */
export const PORT_OFFSETS = {
  'doc-host': 0,
  'rag-search': 1,
  'rag-tools-v1': 2,
  ragbox: 3,
  vtex: 4,
  oauth: 5,
} as const

export interface DemoOptions {
  command: Command
  /** Undefined = the program's default port (base + offset). */
  port?: number | undefined
  portBase: number
  stdio: boolean
  /** Base URL citation links point at. */
  docHost: string
  serveDocs: boolean
  ttlSeconds: number
  sources?: string[] | undefined
  name?: string | undefined
  rateLimit: number
  queryRateLimit: number
  /** Length of RAGbox's rate-limit windows (default 60 s: "per minute"). */
  rateWindowSeconds: number
  maxSegments: number
  apiKey?: string | undefined
  /** `--break ID`: deliberately broken behaviours (Doctor tests). */
  breaks: string[]
  /** all: serve this many endpoints (one port each) instead of one per program. */
  endpoints?: number | undefined
  /** all --endpoints: also list this many stdio servers in the `--registry` file. */
  stdioServers: number
  /** all --endpoints: write a rag-mcp.json listing every endpoint here. */
  registry?: string | undefined
  /** `--latency MS`: every tool call answers after this long, like a real backend. */
  latencyMs: number
  /** `all --endpoints --latency A,B,…`: endpoint i answers after the (i mod n)th (`[latencyMs]`). */
  latencies: number[]
  /** oauth: access token lifetime. */
  tokenTtlSeconds: number
  /** oauth: scope `tools/call` needs on top of `rag:read` (step-up). */
  requireScope?: string | undefined
  /** oauth: approve every sign-in at once as this user (no consent page). */
  approveAs?: string | undefined
  /** oauth: redirect URIs must match a registered one exactly (no RFC 8252 any-port rule). */
  exactRedirectUris: boolean
}

export const USAGE = `usage: node out/main/demo.js <program> [options]

programs:
  rag-search      spec 000 over streamable HTTP (POST /mcp, Bearer key, x-user-id/x-session-tags)
  rag-tools-v1    specs 001/002 over legacy SSE (GET /sse), or over stdio with --stdio
  ragbox          spec 003 over HTTP (POST /api/mcp, X-API-Key, rate limit)
  vtex            spec 004: per-method endpoints under /_v/rag_server/v1/mcp/ and the router
  oauth           rag-tools-v1 behind OAuth 2.1 (MCP authorization spec): HTTP /mcp and SSE /sse
  doc-host        the document host citation links point at
  all             the document host and every HTTP/SSE program, one process
  keys            print the keychain entries of the embedded default registry as JSON
  users           print the demo directory (users, groups, session tags) as JSON

options:
  --port N                 listen port (0 = any free port); default RAG_DEMO_PORT_BASE (47310) + offset
  --port-base N            all: first port (0 = every program on a free port)
  --stdio                  rag-tools-v1: serve one session on stdin/stdout
  --doc-host URL           base URL of citation links (default http://127.0.0.1:<port base>)
  --serve-docs             also run the document host in this process, on the --doc-host port
  --ttl SECONDS            lifetime of signed links (default 300)
  --sources a,b            rag-tools-v1: resources to serve
  --name NAME              rag-tools-v1: server name
  --rate-limit N           ragbox: requests per minute per API key (default 60)
  --query-rate-limit N     ragbox: query_knowledge calls per minute per API key (default 10)
  --rate-window SECONDS    ragbox: length of both rate-limit windows (default 60)
  --max-segments N         rag-search: segments per answer (default 10; the spec allows at most 20)
  --api-key KEY            rag-search: the accepted Bearer key (default: the demo key)
  --endpoints N            all: serve N endpoints instead, each on its own port (base + 1 + i),
                           cycling rag-search, rag-tools-v1 (SSE), ragbox, vtex; prints
                           "endpoint <id> <program> <url>" per endpoint
  --registry FILE          all --endpoints: write a rag-mcp.json listing every endpoint (keys
                           from \${env:RAG_DEMO_SEARCH_KEY} and \${env:RAG_DEMO_RAGBOX_KEY})
  --stdio-servers N        all --endpoints: also list N rag-tools-v1 stdio servers in --registry
  --latency MS             every tool call answers after MS milliseconds (a backend's latency);
                           all --endpoints takes a list A,B,… cycled over the endpoints (the
                           registry's stdio servers get the first)
  --token-ttl SECONDS      oauth: access token lifetime (default 3600; short values test refresh)
  --require-scope SCOPE    oauth: tools/call needs SCOPE too (403 insufficient_scope, step-up)
  --approve-as USER        oauth: approve every sign-in as USER (default: consent page, or the
                           authorization request's login_hint)
  --exact-redirect-uris    oauth: a redirect URI must match a registered one exactly, port
                           included, as authorization servers that ignore RFC 8252 do
  --break ID               break one contract rule on purpose (repeatable), so the console's
                           Doctor can be seen catching it; IDs:
${BREAKS.map((id) => `                             ${id}`).join('\n')}
`

/** Most endpoints one demo process serves (each holds a listening socket). */
export const MAX_ENDPOINTS = 1000

/** A command-line mistake; main prints it with the usage. */
export class UsageError extends Error {}

function int(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback
  const parsed = value.trim() === '' ? NaN : Number(value)
  if (!Number.isInteger(parsed) || parsed < min)
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`)
  return parsed
}

/** Parses `demo.js` arguments; throws {@link UsageError} with a message a person can act on. */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): DemoOptions {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        'port-base': { type: 'string' },
        stdio: { type: 'boolean', default: false },
        'doc-host': { type: 'string' },
        'serve-docs': { type: 'boolean', default: false },
        ttl: { type: 'string' },
        sources: { type: 'string' },
        name: { type: 'string' },
        'rate-limit': { type: 'string' },
        'query-rate-limit': { type: 'string' },
        'rate-window': { type: 'string' },
        'max-segments': { type: 'string' },
        'api-key': { type: 'string' },
        'token-ttl': { type: 'string' },
        'require-scope': { type: 'string' },
        'approve-as': { type: 'string' },
        'exact-redirect-uris': { type: 'boolean', default: false },
        break: { type: 'string', multiple: true },
        endpoints: { type: 'string' },
        'stdio-servers': { type: 'string' },
        registry: { type: 'string' },
        latency: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help) throw new UsageError('')
  const [command, ...extra] = positionals
  if (!command) throw new UsageError('name a program')
  if (!(COMMANDS as readonly string[]).includes(command))
    throw new UsageError(`unknown program "${command}"`)
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`)
  if (values.stdio && command !== 'rag-tools-v1')
    throw new UsageError('--stdio applies to rag-tools-v1 only')
  if (values.port !== undefined && command === 'all')
    throw new UsageError('all takes --port-base, not --port')
  const multi = ['endpoints', 'stdio-servers', 'registry'] as const
  const misplaced = multi.find((name) => values[name] !== undefined)
  if (misplaced && command !== 'all') throw new UsageError(`--${misplaced} applies to all only`)
  if (values.endpoints === undefined && (values.registry ?? values['stdio-servers']) !== undefined)
    throw new UsageError('--registry and --stdio-servers need --endpoints')
  const portBase = int(
    'port-base',
    values['port-base'] ?? env.RAG_DEMO_PORT_BASE,
    DEFAULT_PORT_BASE,
  )
  const docHost = (values['doc-host'] ?? `http://127.0.0.1:${portBase}`).replace(/\/+$/, '')
  try {
    new URL(docHost)
  } catch {
    throw new UsageError(`--doc-host must be a URL, got "${docHost}"`)
  }
  const breaks = values.break ?? []
  const unknown = breaks.find((id) => !(BREAKS as readonly string[]).includes(id))
  if (unknown !== undefined)
    throw new UsageError(`--break must be one of ${BREAKS.join(', ')}, got "${unknown}"`)
  const endpoints =
    values.endpoints === undefined ? undefined : int('endpoints', values.endpoints, 0, 1)
  if (endpoints !== undefined && endpoints > MAX_ENDPOINTS)
    throw new UsageError(`--endpoints must be at most ${MAX_ENDPOINTS}, got ${endpoints}`)
  if (endpoints !== undefined && portBase !== 0 && portBase + endpoints > 65_535)
    throw new UsageError(`--port-base ${portBase} leaves no room for ${endpoints} endpoints`)
  const latencies = (values.latency ?? '0').split(',').map((ms) => int('latency', ms, 0))
  if (latencies.length > 1 && endpoints === undefined)
    throw new UsageError('a --latency list applies to all --endpoints only')
  return {
    command: command as Command,
    port: values.port === undefined ? undefined : int('port', values.port, 0),
    portBase,
    stdio: values.stdio,
    docHost,
    serveDocs: values['serve-docs'],
    ttlSeconds: int('ttl', values.ttl, 300, 1),
    sources: values.sources
      ?.split(',')
      .map((source) => source.trim())
      .filter(Boolean),
    name: values.name,
    rateLimit: int('rate-limit', values['rate-limit'], 60, 1),
    queryRateLimit: int('query-rate-limit', values['query-rate-limit'], 10, 1),
    rateWindowSeconds: int('rate-window', values['rate-window'], 60, 1),
    maxSegments: int('max-segments', values['max-segments'], 10, 1),
    apiKey: values['api-key'],
    breaks,
    endpoints,
    stdioServers: int('stdio-servers', values['stdio-servers'], 0),
    registry: values.registry,
    latencyMs: latencies[0]!,
    latencies,
    tokenTtlSeconds: int('token-ttl', values['token-ttl'], 3600, 1),
    requireScope: values['require-scope'],
    approveAs: values['approve-as'],
    exactRedirectUris: values['exact-redirect-uris'],
  }
}
