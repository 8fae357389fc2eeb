import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import type { ClientRequest } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { ServerConfig } from '#shared/config/schema'
import { ConsoleError } from '#shared/errors'
import type { PoolLogStream } from '#shared/ipc/servers'
import type { RateLimitInfo } from '#shared/model/server'
import { oauthAwareFetch, type PoolAuth } from '../auth/pool-auth'
import type { Challenge } from '../auth/provider'
import type { ResolvedConnection } from '../secrets/types'
import type { CallContext, CallTracker } from './call-context'
import { answerElicitations, ELICITATION_CAPABILITY, type ElicitationHandler } from './elicitation'
import { createHttpFetch } from './http-fetch'
import { ObservedTransport } from './observed-transport'
import type { ProtocolLog } from './protocol-log'
import type { RepairOutcome } from './repair'
import { StdioTransport } from './stdio-transport'

/** Accepts any result as it came: the pool hands raw results to the dialects. */
export const ANY_RESULT = z.unknown()

/** Extra time the SDK's own request timer gets, so the pool's deadline always fires first. */
export const SDK_BACKSTOP_MS = 60_000

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
  /** Binds this connection's JSON-RPC ids to the calls that sent them. */
  tracker: CallTracker
  /** Set for stdio servers: the child process and how it ended. */
  stdio?: StdioTransport
  /** Its requests carry OAuth tokens (an auth provider signs them). */
  oauth?: true
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
  /** Largest message read from a stdio server. */
  maxMessageBytes?: number
  /** Receives every message both ways, with the HTTP status and added headers. */
  protocol?: ProtocolLog
  /** OAuth for HTTP / SSE servers that use it. */
  auth?: PoolAuth
  /** Someone who answers the server's forms: only then is elicitation declared. */
  elicit?: ElicitationHandler
  /** Whether calls carry the acting user's identity headers (HTTP, SSE); default never. */
  identity?: () => boolean
}

/** Builds the Client and the transport chain for one server's effective config. */
export function createClient(options: CreateClientOptions): OpenedClient {
  const { config, resolved, hooks } = options
  let inner: Transport
  let oauth = false
  let stdio: StdioTransport | undefined
  if (config.transport === 'stdio') {
    if (!config.command) throw configError(config.id, 'a stdio server needs a "command"')
    stdio = new StdioTransport({
      command: config.command,
      args: resolved.args ?? config.args,
      env: resolved.env,
      ...(config.cwd ? { cwd: config.cwd } : {}),
      onLine: hooks.onLine,
      onRepair: hooks.onRepair,
      onNote: hooks.onNote,
      ...(options.maxMessageBytes ? { maxMessageBytes: options.maxMessageBytes } : {}),
    })
    inner = stdio
  } else {
    const url = parseUrl(config, resolved.url ?? config.url)
    const poolFetch = createHttpFetch({
      transport: config.transport,
      headers: resolved.headers,
      identity: options.identity ?? (() => false),
      tracker: options.tracker,
      onRepair: hooks.onRepair,
      onRateLimit: hooks.onRateLimit,
      onNote: hooks.onNote,
      ...(options.protocol ? { onExchange: options.protocol.http.bind(options.protocol) } : {}),
    })
    let challenge: Challenge | undefined
    const authProvider = options.auth?.provider(config, url.href, () => challenge)
    const fetch = authProvider
      ? oauthAwareFetch(poolFetch, url, authProvider, (seen) => (challenge = seen))
      : poolFetch
    const auth = authProvider ? { authProvider } : {}
    oauth = authProvider !== undefined
    inner =
      config.transport === 'sse'
        ? new SSEClientTransport(url, { fetch, ...auth })
        : new StreamableHTTPClientTransport(url, {
            fetch,
            ...auth,
            // A resumable stream (one with event ids) that breaks is resumed, after the
            // server's `retry` delay when it names one (SEP-1699); twice at most.
            reconnectionOptions: {
              maxRetries: 2,
              initialReconnectionDelay: 1000,
              maxReconnectionDelay: 1000,
              reconnectionDelayGrowFactor: 1,
            },
          })
  }
  const transport = new ObservedTransport(
    inner,
    options.tracker,
    options.skipHandshake,
    options.protocol,
  )
  const client = new Client(options.clientInfo, {
    capabilities: options.elicit ? ELICITATION_CAPABILITY : {},
    jsonSchemaValidator: sharedValidator(),
  })
  if (options.elicit) {
    const { tracker } = options
    answerElicitations(
      client,
      config.id,
      options.elicit,
      (text) => {
        options.protocol?.note(text)
        hooks.onNote(text)
      },
      () => tracker.holdAll(),
    )
  }
  return {
    client,
    transport,
    tracker: options.tracker,
    ...(stdio ? { stdio } : {}),
    ...(oauth ? { oauth: true as const } : {}),
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

let validator: AjvJsonSchemaValidator | undefined

/**
 * One JSON Schema validator for every Client. The pool never has the SDK validate tool output
 * (raw results go to the dialects), and an Ajv instance per Client would cost each of hundreds
 * of servers milliseconds to build and memory to keep.
 */
function sharedValidator(): AjvJsonSchemaValidator {
  validator ??= new AjvJsonSchemaValidator()
  return validator
}

/**
 * Sends one raw JSON-RPC request for `context` on a Client (its id bound to the call), returning
 * the result exactly as sent.
 */
export function rawRequest(
  opened: Pick<OpenedClient, 'client' | 'tracker'>,
  context: CallContext,
  method: string,
  params: Record<string, unknown> | undefined,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<unknown> {
  const request = (params === undefined ? { method } : { method, params }) as ClientRequest
  const options = { signal, timeout: timeoutMs + SDK_BACKSTOP_MS }
  return opened.tracker.sendAs(context, () => opened.client.request(request, ANY_RESULT, options))
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
