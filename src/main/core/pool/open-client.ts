import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { ClientRequest } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { ServerConfig } from '../../../shared/config/schema'
import { ConsoleError } from '../../../shared/errors'
import type { PoolLogStream } from '../../../shared/ipc/servers'
import type { RateLimitInfo, ToolInfo } from '../../../shared/model/server'
import type { ResolvedConnection } from '../secrets/types'
import type { CallContext, CallTracker } from './call-context'
import { createHttpFetch } from './http-fetch'
import { ObservedTransport } from './observed-transport'
import type { RepairOutcome } from './repair'
import { StdioTransport } from './stdio-transport'

/** Accepts any result as it came: the pool hands raw results to the dialects. */
export const ANY_RESULT = z.unknown()

/** Extra time the SDK's own request timer gets, so the pool's deadline always fires first. */
export const SDK_BACKSTOP_MS = 60_000

const MAX_TOOL_PAGES = 50

/** What the transports report back to the connection that owns them. */
export interface WireHooks {
  onLine(stream: PoolLogStream, text: string): void
  onRepair(outcome: RepairOutcome): void
  onRateLimit(info: RateLimitInfo): void
  onNote(note: string): void
}

/** An SDK Client with its transport chain, not yet connected. */
export interface OpenedClient {
  client: Client
  transport: ObservedTransport
  /** Set for stdio servers: the child process and how it ended. */
  stdio?: StdioTransport
  /** Ends the server-side session where there is one, then closes everything. */
  close(): Promise<void>
}

export interface CreateClientOptions {
  config: ServerConfig
  resolved: ResolvedConnection
  tracker: CallTracker
  skipHandshake: boolean
  hooks: WireHooks
  clientInfo: { name: string; version: string }
  /** Underlying fetch for HTTP transports (tests and benchmarks only). */
  fetch?: FetchLike
}

/** Builds the Client and the transport chain for one server's effective config. */
export function createClient(options: CreateClientOptions): OpenedClient {
  const { config, resolved, hooks } = options
  let inner: Transport
  let stdio: StdioTransport | undefined
  if (config.transport === 'stdio') {
    if (!config.command) throw configError(config.id, 'a stdio server needs a "command"')
    stdio = new StdioTransport({
      command: config.command,
      args: config.args,
      env: resolved.env,
      ...(config.cwd ? { cwd: config.cwd } : {}),
      onLine: hooks.onLine,
      onRepair: hooks.onRepair,
    })
    inner = stdio
  } else {
    const url = parseUrl(config, resolved.url ?? config.url)
    const fetch = createHttpFetch({
      transport: config.transport,
      headers: resolved.headers,
      tracker: options.tracker,
      onRepair: hooks.onRepair,
      onRateLimit: hooks.onRateLimit,
      onNote: hooks.onNote,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    })
    inner =
      config.transport === 'sse'
        ? new SSEClientTransport(url, { fetch })
        : new StreamableHTTPClientTransport(url, {
            fetch,
            // Resuming broken response streams is not worth a retry loop for a console.
            reconnectionOptions: {
              maxRetries: 0,
              initialReconnectionDelay: 1000,
              maxReconnectionDelay: 1000,
              reconnectionDelayGrowFactor: 1,
            },
          })
  }
  const transport = new ObservedTransport(inner, options.tracker, options.skipHandshake)
  const client = new Client(options.clientInfo, { capabilities: {} })
  return {
    client,
    transport,
    ...(stdio ? { stdio } : {}),
    close: async () => {
      if (inner instanceof StreamableHTTPClientTransport && inner.sessionId) {
        await Promise.race([
          inner.terminateSession().catch(() => {}),
          new Promise((resolve) => setTimeout(resolve, 500).unref()),
        ])
      }
      await client.close().catch(() => {})
    },
  }
}

/** Sends one raw JSON-RPC request on a Client, returning the result exactly as sent. */
export function rawRequest(
  client: Client,
  method: string,
  params: Record<string, unknown> | undefined,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<unknown> {
  const request = (params === undefined ? { method } : { method, params }) as ClientRequest
  return client.request(request, ANY_RESULT, { signal, timeout: timeoutMs + SDK_BACKSTOP_MS })
}

/** Every page of `tools/list` (bounded), as the console's ToolInfo. */
export async function listTools(
  send: (method: string, params: Record<string, unknown> | undefined) => Promise<unknown>,
): Promise<ToolInfo[]> {
  const tools: ToolInfo[] = []
  let cursor: string | undefined
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = (await send('tools/list', cursor ? { cursor } : undefined)) as {
      tools?: unknown
      nextCursor?: unknown
    } | null
    for (const tool of Array.isArray(result?.tools) ? result.tools : []) {
      const info = toToolInfo(tool)
      if (info) tools.push(info)
    }
    cursor = typeof result?.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined
    if (!cursor) break
  }
  return tools
}

function toToolInfo(value: unknown): ToolInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { name, description, inputSchema } = value as Record<string, unknown>
  if (typeof name !== 'string' || name === '') return undefined
  const info: ToolInfo = { name }
  if (typeof description === 'string') info.description = description
  if (inputSchema !== undefined) info.inputSchema = inputSchema
  return info
}

/**
 * Whether a failed `initialize` means "this server does not do the handshake" (so the console
 * talks to it without one) rather than "the server is unwell or refuses us".
 */
export function rejectsInitialize(context: CallContext, error: unknown): boolean {
  if (context.timedOut || context.cancelled || context.networkError) return false
  if (context.serverError || context.protocolError) return true
  if (context.httpStatus !== undefined) return [400, 404, 405, 406, 415, 501].includes(context.httpStatus)
  const text = error instanceof Error ? error.message : ''
  return (
    (error as { name?: unknown } | null)?.name === 'ZodError' ||
    /initialize result|protocol version is not supported/i.test(text)
  )
}

function parseUrl(config: ServerConfig, url: string | undefined): URL {
  if (!url) throw configError(config.id, `a ${config.transport} server needs a "url"`)
  try {
    const parsed = new URL(url)
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed
  } catch {
    // reported below
  }
  throw configError(config.id, `"url" ${JSON.stringify(config.url)} is not an http(s) URL`)
}

function configError(server: string, problem: string): ConsoleError {
  return new ConsoleError({
    code: 'config',
    origin: 'local',
    server,
    message: `server ${server}: ${problem}. Fix it in rag-mcp.json`,
  })
}
