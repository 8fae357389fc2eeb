import { z } from 'zod'
import { SCORE_ORDERS } from '../model/rag'

/**
 * The rag-mcp.json schema. The same zod schema validates files at load time and generates
 * `resources/rag-mcp.schema.json` for editors. Objects are loose: unknown fields are reported
 * as warnings by the validator, never rejected.
 */

const stringMap = z.record(z.string(), z.string())

const secretMapNote = 'Values may contain ${keychain:NAME}, ${env:VAR} or ${session:NAME}'

/**
 * Upper bounds of the numbers in a file. Node fires any timer of 2^31 ms or more at once, so an
 * unbounded timeout would make every call time out immediately; the bounds keep values sane.
 */
export const LIMITS = {
  /** Per-call timeout: as `--timeout` allows (5 minutes). */
  timeoutMs: 300_000,
  /** Time for a launched server to get ready (10 minutes). */
  readyTimeoutMs: 600_000,
  /** `ui.order` either way. */
  order: 1_000_000,
  /** Hits a canary may ask for (`minHits`, `docInTopK.k`). */
  canaryHits: 100,
  /** Canaries per server. */
  canaries: 20,
} as const

const milliseconds = (max: number) => z.number().int().min(1).max(max)

export const authModeSchema = z.enum([
  'username',
  'api_key',
  'bearer',
  'oauth',
  'capability',
  'none',
])

export const dataSourceSchema = z.looseObject({
  id: z.string().min(1).describe('Data source id as the server reports it'),
  name: z.string().optional().describe('Display name'),
  groups: z.array(z.string()).optional().describe('Groups that may see this source'),
  authMode: authModeSchema.optional().describe('How the source authorises a user'),
  scopes: z.array(z.string()).optional(),
  defaultSelected: z.boolean().optional().describe('Selected for search by default'),
})

export const launchSchema = z.looseObject({
  command: z.string().min(1).describe('Program that starts the local HTTP/SSE server'),
  args: z.array(z.string()).optional(),
  env: stringMap.optional().describe(`Extra environment. ${secretMapNote}`),
  cwd: z
    .string()
    .optional()
    .describe('Working directory; relative to the folder of the file (default: that folder)'),
  readyPattern: z
    .string()
    .optional()
    .describe('Regular expression matched against its output; else the URL port is awaited'),
  readyTimeoutMs: milliseconds(LIMITS.readyTimeoutMs)
    .optional()
    .describe('How long the started server may take to get ready, 1 to 600000 ms'),
})

/** How the console signs in to a server that uses OAuth 2.1 (MCP authorization spec). */
export const oauthSchema = z.looseObject({
  clientId: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Pre-registered client id; absent: Client ID Metadata Document or dynamic registration',
    ),
  clientSecret: z
    .string()
    .optional()
    .describe('Secret of a confidential pre-registered client: ${keychain:NAME} or ${env:VAR}'),
  clientMetadataUrl: z
    .string()
    .optional()
    .describe('HTTPS URL of a Client ID Metadata Document, used when the server supports it'),
  scopes: z
    .array(z.string().min(1))
    .optional()
    .describe('Scopes to ask for when the server names none (WWW-Authenticate, scopes_supported)'),
  authorizationServerUrl: z
    .string()
    .optional()
    .describe('Authorization server (issuer) URL, instead of discovering it from the server'),
  authorizationEndpoint: z.string().optional().describe('Overrides the discovered endpoint'),
  tokenEndpoint: z.string().optional().describe('Overrides the discovered endpoint'),
  registrationEndpoint: z.string().optional().describe('Overrides the discovered endpoint'),
  tokenEndpointAuthMethod: z
    .enum(['client_secret_basic', 'client_secret_post', 'none'])
    .optional()
    .describe('How a pre-registered client authenticates at the token endpoint'),
  grant: z
    .enum(['authorization_code', 'client_credentials'])
    .optional()
    .describe('Default authorization_code (a person signs in); client_credentials needs a secret'),
  redirectPort: z
    .number()
    .int()
    .min(1024)
    .max(65535)
    .optional()
    .describe('Port of the loopback redirect (http://127.0.0.1:PORT/callback); default random'),
  perProfile: z
    .boolean()
    .optional()
    .describe('Keep separate tokens for each acting profile (servers that are per-user)'),
})

/** Maps any tool of any server to the console's "search" operation. */
export const genericSearchSchema = z.looseObject({
  tool: z.string().min(1).describe('Tool to call for search'),
  arguments: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Argument template; strings may contain {query}, {topK} and {user}'),
  hits: z
    .string()
    .optional()
    .describe(
      'Dotted path to the hit list ("results.items", "data[0].hits"; "" or absent: the root) in the ' +
        'parsed result: structuredContent, else the JSON text block, else the raw result',
    ),
  fields: z
    .looseObject({
      id: z.string().optional(),
      title: z.string().optional(),
      text: z.string().optional(),
      snippet: z.string().optional(),
      uri: z.string().optional(),
      score: z.string().optional(),
      sourceId: z.string().optional(),
    })
    .optional()
    .describe(
      'Dotted paths inside one hit (defaults: id, title, text, snippet, uri, score); an array of ' +
        'strings is joined with newlines',
    ),
  scoreOrder: z
    .enum(SCORE_ORDERS)
    .optional()
    .describe(
      'Which way the mapped score runs: "higher-is-better" (a similarity or relevance) or ' +
        '"lower-is-better" (a distance). When set, the hits are ranked by the score that way; ' +
        "absent: the server's order is kept and larger scores count as better",
    ),
  error: z
    .string()
    .optional()
    .describe(
      'Dotted path to where the server puts an error in the parsed result ("error", ' +
        '"error.message"); a reply with a value there (not null, false or "") is a refusal and ' +
        'counts as a failed search',
    ),
})

export const dialectIdSchema = z.enum([
  'auto',
  'rag-search',
  'rag-tools-v1',
  'ragbox',
  'vtex',
  'generic',
])

export const dialectSchema = z.union([
  dialectIdSchema,
  z.looseObject({ search: genericSearchSchema }).describe('A generic mapping'),
])

export const transportSchema = z.enum(['http', 'sse', 'stdio'])

/** `type` as Claude Desktop, Cursor and VS Code write it; normalised into `transport`. */
export const transportTypeSchema = z.enum(['http', 'streamable-http', 'sse', 'stdio'])

export const uiSchema = z.looseObject({
  icon: z.string().optional(),
  order: z
    .number()
    .min(-LIMITS.order)
    .max(LIMITS.order)
    .optional()
    .describe('Position in lists, lowest first (-1000000 to 1000000)'),
  defaultSelected: z.boolean().optional(),
})

/** What a canary query must find; every one given must hold. */
export const canaryExpectSchema = z.looseObject({
  minHits: z
    .number()
    .int()
    .min(0)
    .max(LIMITS.canaryHits)
    .optional()
    .describe('At least this many hits'),
  docInTopK: z
    .looseObject({
      doc: z.string().min(1).describe('Hit id, title, file name or link of the document'),
      k: z.number().int().min(1).max(LIMITS.canaryHits).describe('Within the first k hits'),
    })
    .optional()
    .describe('A given document among the first k hits'),
  maxLatencyMs: milliseconds(LIMITS.timeoutMs)
    .optional()
    .describe("The server's search answers within this many ms"),
  verifyCitation: z
    .union([z.boolean(), z.string().min(1)])
    .optional()
    .describe(
      "true: the first hit's citation must verify (verify_document_access and its link); " +
        "a document (as in docInTopK): that hit's citation must",
    ),
})

/** A search run after every reload that touches the server and on the monitor's schedule. */
export const canarySchema = z.looseObject({
  name: z.string().min(1).optional().describe('Label in logs and metrics (default: the query)'),
  query: z.string().min(1).describe('What to search for, as the acting user'),
  expect: canaryExpectSchema.optional().describe('What the search must find'),
})

export const serverEntrySchema = z.looseObject({
  transport: transportSchema
    .optional()
    .describe('Inferred when absent: command → stdio; URL path ending /sse → sse; else http'),
  type: transportTypeSchema
    .optional()
    .describe('Alias of transport, as Claude Desktop, Cursor and VS Code write it'),
  url: z.string().optional().describe(`Server URL (http, sse). ${secretMapNote}`),
  command: z.string().optional().describe('Program to run (stdio)'),
  args: z.array(z.string()).optional().describe('Arguments of command'),
  env: stringMap.optional().describe(`Environment of command (stdio). ${secretMapNote}`),
  cwd: z
    .string()
    .optional()
    .describe('Working directory of command; relative to the file (default: its folder)'),
  headers: stringMap.optional().describe(`HTTP headers (http, sse). ${secretMapNote}`),
  identityHeaders: z
    .boolean()
    .optional()
    .describe(
      'Send the acting user as x-user-id, x-session-tags and x-human-uid (http, sse). Default: only to servers of a family that defines them (rag-search)',
    ),
  groups: z.array(z.string()).optional().describe('Groups that may see this server'),
  is_exclusive: z.boolean().optional(),
  description: z.string().optional(),
  enabled: z.boolean().optional().describe('Default true'),
  dialect: dialectSchema.optional().describe('Default "auto": detected from tools/list'),
  timeoutMs: milliseconds(LIMITS.timeoutMs)
    .optional()
    .describe('Per-call timeout, 1 to 300000 ms, default 15000'),
  ui: uiSchema.optional(),
  dataSources: z.array(dataSourceSchema).optional(),
  launch: launchSchema
    .optional()
    .describe('Starts a local HTTP/SSE server with the console; url is where it listens'),
  canaries: z
    .array(canarySchema)
    .max(LIMITS.canaries)
    .optional()
    .describe('Searches with expectations, run after reloads and by `rag-console monitor`'),
  oauth: oauthSchema
    .optional()
    .describe(
      'OAuth 2.1 sign-in (http, sse); without it, OAuth is discovered from a 401 challenge',
    ),
})

/** An entry of VS Code's `inputs`: values VS Code prompts for, referenced as `${input:ID}`. */
export const vsCodeInputSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().optional(),
  description: z.string().optional(),
  password: z.boolean().optional(),
})

/**
 * The whole file, for editors: a map of server id → entry (the seed format), or the same map
 * under `mcpServers` (Claude Desktop, Cursor) or `servers` (VS Code, with `inputs`).
 */
export const registryFileSchema = z
  .looseObject({
    $schema: z.string().optional().describe('Editor hint; ignored by the console'),
    mcpServers: z
      .record(z.string(), serverEntrySchema)
      .optional()
      .describe('Claude Desktop / Cursor form: the servers, by id'),
    servers: z
      .record(z.string(), serverEntrySchema)
      .optional()
      .describe('VS Code form: the servers, by id'),
    inputs: z
      .array(vsCodeInputSchema)
      .optional()
      .describe('VS Code form: values referenced as ${input:ID}'),
  })
  .catchall(serverEntrySchema)
  .describe('RAG Console server registry (rag-mcp.json)')

export type ServerEntryInput = z.input<typeof serverEntrySchema>
export type ServerEntry = z.output<typeof serverEntrySchema>
export type DataSourceConfig = z.output<typeof dataSourceSchema>
export type LaunchConfig = z.output<typeof launchSchema>
export type OAuthConfig = z.output<typeof oauthSchema>
export type GenericSearchMapping = z.output<typeof genericSearchSchema>
export type DialectSetting = z.output<typeof dialectSchema>
export type VsCodeInput = z.output<typeof vsCodeInputSchema>
export type CanaryConfig = z.output<typeof canarySchema>

/**
 * One server's effective configuration after defaults and inference: what the pool connects
 * with. Secret references (`${keychain:NAME}`, `${env:VAR}`, `${session:NAME}`) are still
 * unresolved here.
 */
export interface ServerConfig {
  id: string
  transport: 'http' | 'sse' | 'stdio'
  url?: string
  command?: string
  args: string[]
  env: Record<string, string>
  /** Absolute once loaded from a file (relative paths are resolved against its folder). */
  cwd?: string
  headers: Record<string, string>
  /**
   * Whether the acting user's identity headers are sent; absent: only when the server's family
   * defines them (see `sendsIdentity` in the dialect registry).
   */
  identityHeaders?: boolean
  groups: string[]
  isExclusive: boolean
  description?: string
  enabled: boolean
  dialect: DialectSetting
  timeoutMs: number
  ui: {
    icon?: string | undefined
    order?: number | undefined
    defaultSelected?: boolean | undefined
  }
  dataSources: DataSourceConfig[]
  launch?: LaunchConfig
  /** Canary queries (absent: none). */
  canaries?: CanaryConfig[]
  /** OAuth settings (http, sse); absent: discovered from the server's 401. */
  oauth?: OAuthConfig
  /** File the entry came from (the overrides file when it touched the entry). */
  origin: string
}

/** Per-call timeout when an entry sets no `timeoutMs`. */
export const DEFAULT_TIMEOUT_MS = 15_000
