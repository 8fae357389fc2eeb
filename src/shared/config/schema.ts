import { z } from 'zod'

/**
 * The rag-mcp.json schema. The same zod schema validates files at load time and generates
 * `resources/rag-mcp.schema.json` for editors.
 */

const stringMap = z.record(z.string(), z.string())

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
  authMode: authModeSchema.optional(),
  scopes: z.array(z.string()).optional(),
  defaultSelected: z.boolean().optional(),
})

export const launchSchema = z.looseObject({
  command: z.string().min(1).describe('Program that starts the local HTTP/SSE server'),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  readyPattern: z
    .string()
    .optional()
    .describe('Regular expression matched against its output; else the URL port is awaited'),
  readyTimeoutMs: z.number().int().positive().optional(),
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

export const serverEntrySchema = z.looseObject({
  transport: transportSchema.optional().describe('Inferred when absent'),
  /** Accepted from VS Code / Claude files; normalised into `transport`. */
  type: z.string().optional(),
  url: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  headers: stringMap.optional(),
  groups: z.array(z.string()).optional(),
  is_exclusive: z.boolean().optional(),
  description: z.string().optional(),
  enabled: z.boolean().optional(),
  dialect: dialectSchema.optional(),
  timeoutMs: z.number().int().positive().optional(),
  ui: z
    .looseObject({
      icon: z.string().optional(),
      order: z.number().optional(),
      defaultSelected: z.boolean().optional(),
    })
    .optional(),
  dataSources: z.array(dataSourceSchema).optional(),
  launch: launchSchema.optional(),
})

export type ServerEntryInput = z.input<typeof serverEntrySchema>
export type DataSourceConfig = z.output<typeof dataSourceSchema>
export type LaunchConfig = z.output<typeof launchSchema>
export type GenericSearchMapping = z.output<typeof genericSearchSchema>
export type DialectSetting = z.output<typeof dialectSchema>

/**
 * One server's effective configuration after defaults and inference: what the pool connects
 * with. Secret references (`${keychain:NAME}`, `${env:VAR}`) are still unresolved here.
 */
export interface ServerConfig {
  id: string
  transport: 'http' | 'sse' | 'stdio'
  url?: string
  command?: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  headers: Record<string, string>
  groups: string[]
  isExclusive: boolean
  description?: string
  enabled: boolean
  dialect: DialectSetting
  timeoutMs: number
  ui: { icon?: string; order?: number; defaultSelected?: boolean }
  dataSources: DataSourceConfig[]
  launch?: LaunchConfig
  /** File the entry came from. */
  origin: string
}

export const DEFAULT_TIMEOUT_MS = 15_000
