import { z } from 'zod'
import { genericSearchSchema } from '../config/schema'
import { mappingChoiceSchema, type MappingPreview, type MappingProposal } from '../model/mapping'
import type { RawConfig } from './registry'

/** Where a protocol log entry came from. */
export type ProtocolDirection =
  /** Sent by the console. */
  | 'out'
  /** Received from the server. */
  | 'in'
  /** A line the server process wrote to stderr (stdio servers). */
  | 'stderr'

/** `note`: a remark of the console's own (why it declined a server's form). */
export type ProtocolKind = 'request' | 'response' | 'error' | 'notification' | 'stderr' | 'note'

/** One JSON-RPC message (or stderr line) on a server's connection, redacted. */
export interface ProtocolEntry {
  /** Increases by one per entry of a server's log; stays the same when the ring drops old ones. */
  seq: number
  /** Epoch ms. */
  at: number
  direction: ProtocolDirection
  kind: ProtocolKind
  method?: string
  id?: string | number
  /** Bytes of the message as JSON (before truncation). */
  size: number
  /** For a response or error: ms since its request went out. */
  durationMs?: number
  /** HTTP transports: the status of the POST that carried the message. */
  httpStatus?: number
  /** Headers the console added to that POST: identity shown, credentials `[redacted]`. */
  headers?: Record<string, string>
  /** `notifications/message`: its level. */
  level?: string
  /**
   * The console operation that sent the request (or whose request this replies to):
   * `workbench`, `search`, `doctor`, `ping`, `connect`, …; absent when not known.
   */
  operation?: string
  /** The message as JSON text (or the stderr line), cut at the preview length. */
  text: string
  /** `text` was cut; `workbench:log-entry` returns the whole message while it is kept. */
  truncated: boolean
}

/** MCP log levels, lowest first (`logging/setLevel`). */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const
export type LogLevelName = (typeof LOG_LEVELS)[number]

/** A server given by hand in the workbench: never written anywhere unless added to the registry. */
export const trySpecSchema = z.union([
  z.object({
    transport: z.enum(['http', 'sse']),
    url: z.string().min(1).max(8192),
    headers: z.record(z.string().min(1).max(256), z.string().max(8192)).optional(),
  }),
  z.object({
    transport: z.literal('stdio'),
    command: z.string().min(1).max(4096),
    args: z.array(z.string().max(4096)).max(256).optional(),
  }),
])
export type TrySpec = z.infer<typeof trySpecSchema>

/**
 * A server that is being tried: its header values are not sent back, only their names, and
 * secret-looking arguments are masked.
 */
export interface TryServer {
  server: string
  transport: 'http' | 'sse' | 'stdio'
  url?: string
  command?: string
  args?: string[]
  headerNames: string[]
}

/** A tool call of the workbench, as history, saved requests and "copy as" know it. */
export interface WorkbenchCall {
  server: string
  tool: string
  arguments: Record<string, unknown>
}

export interface ArgumentProblem {
  /** JSON pointer into the arguments (`/query`, `/filters/0`), `` for the whole object. */
  path: string
  message: string
}

export interface WorkbenchCallResult {
  callId: string
  server: string
  tool: string
  /** The `tools/call` result as the server sent it (content blocks, structuredContent, …), redacted. */
  result: Record<string, unknown>
  /** The server reported a tool error (`isError: true`). */
  isError: boolean
  latencyMs: number
}

export interface HistoryEntry extends WorkbenchCall {
  callId: string
  /** Epoch ms. */
  at: number
  outcome: 'ok' | 'tool_error' | 'error'
  errorCode?: string
  latencyMs: number
}

export interface SavedRequest extends WorkbenchCall {
  id: string
  name: string
  /** ISO time. */
  savedAt: string
}

export interface Page<T> {
  items: T[]
  nextCursor?: string
  /**
   * `false`: the server offers none of these (it declares no such capability, or does not know
   * the method); nothing else was asked.
   */
  offered?: false
  /** Why it offers none, in words (with `offered: false`). */
  why?: string
}

const serverId = z.string().min(1).max(256)
const callId = z.string().min(1).max(128)
const cursor = z.string().max(4096).optional()
const toolArgs = z.record(z.string(), z.unknown())
const callSchema = z.object({
  server: serverId,
  tool: z.string().min(1).max(256),
  arguments: toolArgs,
})

/** The workbench: any tool, resources, prompts and the protocol log of any server. */
export const workbenchRequests = {
  /** Checks arguments against the tool's input schema without calling it. */
  'workbench:validate': callSchema,
  /**
   * Calls a tool as the acting profile. Arguments are checked against the tool's input schema
   * first (`invalid_argument` with `details.problems`) unless `skipValidation`.
   */
  'workbench:call': callSchema.extend({
    callId: callId.optional(),
    timeoutMs: z.number().int().min(100).max(600_000).optional(),
    skipValidation: z.boolean().optional(),
  }),
  /** Cancels a running `workbench:call`. */
  'workbench:cancel': z.object({ callId }),
  'workbench:history': z.object({ server: serverId.optional() }).optional(),
  'workbench:resources': z.object({ server: serverId, cursor }),
  'workbench:resource-templates': z.object({ server: serverId, cursor }),
  'workbench:read-resource': z.object({ server: serverId, uri: z.string().min(1).max(8192) }),
  'workbench:subscribe': z.object({
    server: serverId,
    uri: z.string().min(1).max(8192),
    subscribe: z.boolean(),
  }),
  'workbench:prompts': z.object({ server: serverId, cursor }),
  'workbench:get-prompt': z.object({
    server: serverId,
    name: z.string().min(1).max(256),
    arguments: z.record(z.string(), z.string().max(100_000)).optional(),
  }),
  /** The protocol log of a server, oldest first; `afterSeq` returns only newer entries. */
  'workbench:log': z.object({
    server: serverId,
    afterSeq: z.number().int().min(0).optional(),
  }),
  /** One protocol log entry with its whole message, while it is still kept. */
  'workbench:log-entry': z.object({ server: serverId, seq: z.number().int().min(0) }),
  'workbench:log-clear': z.object({ server: serverId }),
  /** `logging/setLevel` on the server. */
  'workbench:set-level': z.object({ server: serverId, level: z.enum(LOG_LEVELS) }),
  /** Connects to a server given by hand, for this session only. */
  'workbench:try': trySpecSchema,
  'workbench:try-close': z.object({ server: serverId }),
  /** The servers being tried (they outlive a reload of the page). */
  'workbench:try-list': z.undefined(),
  /** Writes a tried server into rag-mcp.json; secret-looking header values go to the keychain. */
  'workbench:try-add': z.object({
    server: serverId,
    id: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, "_", "." and "-" only'),
    baseHash: z.string(),
  }),
  /**
   * A generic search mapping proposed from a call's result (the call's tool, arguments and the
   * result it returned), with the hits it makes of that result. `choice` keeps what the admin
   * picked; the rest is guessed. Nothing is called.
   */
  'workbench:map-propose': callSchema.extend({
    result: z.unknown(),
    choice: mappingChoiceSchema.optional(),
  }),
  /**
   * rag-mcp.json with the server's `dialect` set to the mapping, and the file it was made
   * from: preview it with `config:validate`, save it with `config:save` and that file's hash.
   */
  'workbench:map-draft': z.object({ server: serverId, mapping: genericSearchSchema }),
  /** The call as a `rag-console call …` command and, for HTTP servers, a cURL command. */
  'workbench:copy': callSchema,
  'workbench:saved-list': z.object({ server: serverId.optional() }).optional(),
  'workbench:saved-save': callSchema.extend({ name: z.string().min(1).max(200) }),
  'workbench:saved-delete': z.object({ id: z.string().min(1).max(128) }),
}

export interface WorkbenchResults {
  'workbench:validate': { valid: boolean; problems: ArgumentProblem[] }
  'workbench:call': WorkbenchCallResult
  'workbench:cancel': { cancelled: boolean }
  'workbench:history': { calls: HistoryEntry[] }
  'workbench:resources': Page<Record<string, unknown>>
  'workbench:resource-templates': Page<Record<string, unknown> & { variables: string[] }>
  'workbench:read-resource': { contents: Record<string, unknown>[] }
  'workbench:subscribe': { subscribed: boolean }
  'workbench:prompts': Page<Record<string, unknown>>
  'workbench:get-prompt': Record<string, unknown>
  'workbench:log': { server: string; entries: ProtocolEntry[] }
  'workbench:log-entry': { entry: ProtocolEntry; full: string | null }
  'workbench:log-clear': { cleared: number }
  'workbench:set-level': { level: LogLevelName }
  'workbench:try': TryServer
  'workbench:try-close': { closed: boolean }
  'workbench:try-list': { servers: TryServer[] }
  'workbench:try-add': { id: string; movedSecrets: { name: string; where: string }[] }
  'workbench:map-propose': { proposal: MappingProposal; preview: MappingPreview | null }
  'workbench:map-draft': { raw: RawConfig; text: string }
  'workbench:copy': { cli: string; curl: string | null }
  'workbench:saved-list': { requests: SavedRequest[] }
  'workbench:saved-save': SavedRequest
  'workbench:saved-delete': { deleted: boolean }
}

export interface WorkbenchEvents {
  /** New protocol log entries of one server, batched (at most a few per second). */
  'workbench:protocol': { server: string; entries: ProtocolEntry[] }
}
