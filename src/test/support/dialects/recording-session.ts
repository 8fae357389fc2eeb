import type { ServerConfig } from '#shared/config/schema'
import { ConsoleError } from '#shared/errors'
import type { ToolInfo } from '#shared/model/server'
import type { ActingUser } from '#shared/model/user'
import type { CallOptions, RawToolResult, ServerSession } from '#core/pool/types'
import { serverConfig } from '../config/server-config'

/**
 * A {@link ServerSession} for adapter tests: it replays canned raw replies (what a server would
 * send, the only thing outside the adapters) and records every call the adapter made. A reply is
 * a value, a function of the arguments, or an Error to throw (a `ConsoleError` as the pool
 * would raise it).
 */

export type Reply = unknown | ((params: Record<string, unknown>) => unknown)

export interface RecordedCall {
  kind: 'tool' | 'request'
  name: string
  params: Record<string, unknown> | undefined
  options: CallOptions
}

export interface RecordingSessionInit {
  serverId?: string
  /** Tools as listed at connect time; defaults to the names of `tools` replies. */
  toolList?: ToolInfo[]
  /** Input schemas for the default tool list, by tool name. */
  inputSchemas?: Record<string, unknown>
  tools?: Record<string, Reply>
  requests?: Record<string, Reply>
  config?: Partial<ServerConfig>
  serverInfo?: ServerSession['serverInfo']
}

export class RecordingSession implements ServerSession {
  readonly serverId: string
  readonly config: ServerConfig
  readonly tools: ToolInfo[]
  readonly serverInfo?: ServerSession['serverInfo']
  readonly calls: RecordedCall[] = []
  private readonly toolReplies: Record<string, Reply>
  private readonly requestReplies: Record<string, Reply>

  constructor(init: RecordingSessionInit = {}) {
    this.serverId = init.serverId ?? 'test'
    this.toolReplies = init.tools ?? {}
    this.requestReplies = init.requests ?? {}
    this.tools =
      init.toolList ??
      Object.keys(this.toolReplies).map((name) =>
        init.inputSchemas?.[name] ? { name, inputSchema: init.inputSchemas[name] } : { name },
      )
    this.config = testConfig(this.serverId, init.config)
    if (init.serverInfo) this.serverInfo = init.serverInfo
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RawToolResult> {
    this.calls.push({ kind: 'tool', name, params: args, options })
    if (!(name in this.toolReplies)) throw rpcError(this.serverId, -32602, `Unknown tool: ${name}`)
    return (await this.reply(this.toolReplies[name], args)) as RawToolResult
  }

  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<unknown> {
    this.calls.push({ kind: 'request', name: method, params, options })
    if (!(method in this.requestReplies)) {
      throw rpcError(this.serverId, -32601, `Method not found: ${method}`)
    }
    return this.reply(this.requestReplies[method], params ?? {})
  }

  /** The arguments of the calls to one tool or method, in order. */
  argsOf(name: string): (Record<string, unknown> | undefined)[] {
    return this.calls.filter((call) => call.name === name).map((call) => call.params)
  }

  private async reply(reply: Reply, params: Record<string, unknown>): Promise<unknown> {
    const value = typeof reply === 'function' ? await reply(params) : reply
    if (value instanceof Error) throw value
    // Each call gets its own copy, as a real transport would deliver. A reply nested too deeply
    // to clone (fuzzing) is passed as is: JSON.parse, which a transport uses, takes any depth.
    if (value === undefined) return undefined
    try {
      return structuredClone(value)
    } catch (error) {
      if (error instanceof RangeError) return value
      throw error
    }
  }
}

/** A JSON-RPC error as the pool reports one the server sent. */
export function rpcError(server: string, code: number, message: string): ConsoleError {
  return new ConsoleError({
    code: 'server_error',
    origin: 'server',
    server,
    message,
    details: { code },
  })
}

/** The config of a recorded stdio server (`test-server`, never started). */
export function testConfig(id: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const { url: _placeholder, ...defaults } = serverConfig(id, {
    transport: 'stdio',
    command: 'test-server',
    timeoutMs: 15_000,
  })
  return { ...defaults, ...overrides }
}

export const alice: ActingUser = {
  userId: 'alice@example.com',
  sessionTags: ['department:sales'],
  humanUid: 'human_1',
  groups: ['users'],
}

/** Call options as the services pass them. */
export function asUser(user: ActingUser | undefined = alice, operation = 'search'): CallOptions {
  return user ? { operation, user } : { operation }
}

/** A standard tool result holding `text` in one text block. */
export function textResult(text: string): RawToolResult {
  return { content: [{ type: 'text', text }] }
}
