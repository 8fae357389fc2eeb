import type { DialectSetting } from '#shared/config/schema'
import type { ToolHints, ToolInfo } from '#shared/model/server'
import { runBounded } from './bounded'
import type { CallContext } from './call-context'
import type { Clock } from './clock'
import { rawRequest, type OpenedClient } from './open-client'
import type { ServerSession } from './types'

const MAX_TOOL_PAGES = 50

export interface HandshakeOptions {
  context: CallContext
  timeoutMs: number
  /** Aborts the handshake (the server is leaving the pool). */
  signal: AbortSignal
  clock: Clock
  dialect: DialectSetting
  note(text: string): void
}

export interface HandshakeResult {
  tools: ToolInfo[]
  serverInfo: NonNullable<ServerSession['serverInfo']>
}

/**
 * Connects the Client (`initialize`, unless the transport says to skip it), lists the tools
 * and, for spec 004 servers, sends their non-standard `handshake`; all within one deadline.
 */
export function handshake(
  opened: OpenedClient,
  options: HandshakeOptions,
): Promise<HandshakeResult> {
  const { context, timeoutMs } = options
  return runBounded(context, timeoutMs, options.signal, options.clock, async (signal) => {
    // `initialize` goes out after the transport started: the handshake owns the connection.
    await opened.tracker.ownDuring(context, () =>
      opened.client.connect(opened.transport, { signal, timeout: timeoutMs }),
    )
    const send = (method: string, params: Record<string, unknown> | undefined) =>
      rawRequest(opened, context, method, params, signal, timeoutMs)
    let tools: ToolInfo[] = []
    try {
      tools = await listTools(send)
    } catch (error) {
      // A server that answers but cannot list tools is still reachable: say so, keep going.
      if (!context.serverError) throw error
      options.note(`tools/list failed: ${context.serverError.message}`)
      delete context.serverError
    }
    const version = opened.client.getServerVersion()
    const serverInfo: HandshakeResult['serverInfo'] = {}
    if (version?.name) serverInfo.name = version.name
    if (version?.version) serverInfo.version = version.version
    // Known only from an initialize result (a server talked to without one declares nothing).
    const declared = opened.client.getServerCapabilities()
    if (declared) serverInfo.capabilities = Object.keys(declared).sort()
    if (options.dialect === 'vtex') {
      // Spec 004's own handshake; its answer is informative only.
      serverInfo.handshake = await send('handshake', {
        version: '1.0.0',
        capabilities: ['tools', 'resources'],
      }).catch(() => undefined)
      delete context.serverError
    }
    return { tools, serverInfo }
  })
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
    cursor =
      typeof result?.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined
    if (!cursor) break
  }
  return tools
}

function toToolInfo(value: unknown): ToolInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { name, description, inputSchema, annotations } = value as Record<string, unknown>
  if (typeof name !== 'string' || name === '') return undefined
  const info: ToolInfo = { name }
  if (typeof description === 'string') info.description = description
  if (inputSchema !== undefined) info.inputSchema = inputSchema
  const hints = toolHints(annotations)
  if (hints) info.annotations = hints
  return info
}

/** The boolean hints of a tool's `annotations`; anything else in them is left out. */
function toolHints(value: unknown): ToolHints | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const hints: ToolHints = {}
  for (const key of ['readOnlyHint', 'destructiveHint'] as const) {
    const hint = (value as Record<string, unknown>)[key]
    if (typeof hint === 'boolean') hints[key] = hint
  }
  return Object.keys(hints).length > 0 ? hints : undefined
}

/**
 * Whether a failed `initialize` means "this server does not do the handshake" (so the console
 * talks to it without one) rather than "the server is unwell or refuses us".
 */
export function rejectsInitialize(context: CallContext, error: unknown): boolean {
  if (context.timedOut || context.cancelled || context.networkError) return false
  if (context.serverError || context.protocolError) return true
  if (context.httpStatus !== undefined) {
    return [400, 404, 405, 406, 415, 501].includes(context.httpStatus)
  }
  const text = error instanceof Error ? error.message : ''
  return (
    (error as { name?: unknown } | null)?.name === 'ZodError' ||
    /initialize result|protocol version is not supported/i.test(text)
  )
}
