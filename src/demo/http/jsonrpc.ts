import type { IncomingMessage, ServerResponse } from 'node:http'
import { broken } from '../breaks'
import { withinLatency } from '../latency'

/** Standard JSON-RPC 2.0 error codes. */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const

/** HTTP status that goes with each standard error code, for servers that send one. */
export const RPC_HTTP_STATUS: Record<number, number> = {
  [RPC.PARSE_ERROR]: 400,
  [RPC.INVALID_REQUEST]: 400,
  [RPC.METHOD_NOT_FOUND]: 404,
  [RPC.INVALID_PARAMS]: 400,
  [RPC.INTERNAL_ERROR]: 500,
}

export type JsonRpcId = string | number | null

/** A JSON-RPC error a handler throws; becomes the response's `error`. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export interface JsonRpcMessage {
  id?: JsonRpcId | undefined
  method: string
  params: Record<string, unknown>
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: { code: number; message: string; data?: unknown } }

/** Method name → handler. Handlers return the `result` or throw {@link RpcError}. */
export type Methods<C> = Record<string, (params: Record<string, unknown>, ctx: C) => unknown>

const MAX_BODY_BYTES = 1_000_000

/** Reads a request body as text (refuses bodies over 1 MB with -32600). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = []
  let size = 0
  for await (const part of req) {
    const buffer = part as Buffer
    size += buffer.length
    if (size > MAX_BODY_BYTES)
      throw new RpcError(RPC.INVALID_REQUEST, 'Request body larger than 1 MB')
    parts.push(buffer)
  }
  return Buffer.concat(parts).toString('utf8')
}

/** Parses and shape-checks one JSON-RPC message. */
export function parseMessage(text: string): JsonRpcMessage {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new RpcError(RPC.PARSE_ERROR, 'Parse error: the body is not valid JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RpcError(RPC.INVALID_REQUEST, 'Invalid Request: expected one JSON-RPC object')
  }
  const record = body as Record<string, unknown>
  const { id, method, params } = record
  const idOk = id === undefined || id === null || typeof id === 'string' || typeof id === 'number'
  if (record.jsonrpc !== '2.0' || typeof method !== 'string' || !idOk) {
    throw new RpcError(
      RPC.INVALID_REQUEST,
      'Invalid Request: needs jsonrpc "2.0", a method and a valid id',
    )
  }
  if (
    params !== undefined &&
    (typeof params !== 'object' || params === null || Array.isArray(params))
  ) {
    throw new RpcError(RPC.INVALID_PARAMS, 'Invalid params: params must be an object')
  }
  return {
    id: id as JsonRpcId | undefined,
    method,
    params: (params ?? {}) as Record<string, unknown>,
  }
}

/** Best-effort id of a message that failed to parse, for the error response. */
export function idOf(text: string): JsonRpcId {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id
    return typeof id === 'string' || typeof id === 'number' ? id : null
  } catch {
    return null
  }
}

export function rpcResult(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result }
}

export function rpcError(id: JsonRpcId, error: RpcError): JsonRpcResponse {
  const body = { code: error.code, message: error.message }
  return {
    jsonrpc: '2.0',
    id,
    error: error.data === undefined ? body : { ...body, data: error.data },
  }
}

/**
 * Runs one message through the method table. Returns undefined for notifications (no id);
 * unknown methods answer -32601, unexpected exceptions -32603. Tool calls answer once
 * `latencyMs` (default: the process's `--latency`) has passed since they came in, their own
 * work counted within it.
 */
export async function dispatch<C>(
  message: JsonRpcMessage,
  methods: Methods<C>,
  ctx: C,
  latencyMs?: number,
): Promise<JsonRpcResponse | undefined> {
  const id = message.id ?? null
  const handler = Object.hasOwn(methods, message.method) ? methods[message.method] : undefined
  try {
    if (!handler) {
      if (broken('protocol.errors') && message.id !== undefined) return rpcResult(id, {})
      throw new RpcError(RPC.METHOD_NOT_FOUND, `Method not found: ${message.method}`)
    }
    if (broken('protocol.initialize') && message.method === 'initialize')
      throw new RpcError(RPC.METHOD_NOT_FOUND, 'Method not found: initialize')
    if (broken('protocol.ping') && message.method === 'ping') throw new Error('ping is broken')
    const result =
      message.method === 'tools/call'
        ? await withinLatency(() => handler(message.params, ctx), latencyMs)
        : await handler(message.params, ctx)
    if (broken('protocol.tools-list') && message.method === 'tools/list') {
      // A cursor that never ends the listing.
      return rpcResult(id, { ...(result as object), nextCursor: 'again' })
    }
    return message.id === undefined ? undefined : rpcResult(id, result)
  } catch (error) {
    if (message.id === undefined) return undefined
    if (error instanceof RpcError) return rpcError(id, error)
    const text = error instanceof Error ? error.message : String(error)
    return rpcError(id, new RpcError(RPC.INTERNAL_ERROR, `Internal error: ${text}`))
  }
}

/** Writes a JSON body with the given status and headers. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

/** Writes an empty response. */
export function sendEmpty(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number> = {},
): void {
  res.writeHead(status, headers)
  res.end()
}

/** Protocol versions the raw JSON-RPC servers accept (newest first). */
const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']

/** The client's requested protocol version when we speak it, else our newest. */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && VERSIONS.includes(requested) ? requested : VERSIONS[0]!
}

/** Reads a string argument; throws -32602 naming the argument when it is missing or wrong. */
export function stringArg(args: Record<string, unknown>, name: string, required: true): string
export function stringArg(
  args: Record<string, unknown>,
  name: string,
  required?: false,
): string | undefined
export function stringArg(
  args: Record<string, unknown>,
  name: string,
  required = false,
): string | undefined {
  const value = args[name]
  if (value === undefined || value === null) {
    if (required) throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: "${name}" is required`)
    return undefined
  }
  if (typeof value !== 'string')
    throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: "${name}" must be a string`)
  return value
}

/** Reads an optional integer argument within [min, max]; throws -32602 otherwise. */
export function intArg(
  args: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const value = args[name]
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RpcError(
      RPC.INVALID_PARAMS,
      `Invalid params: "${name}" must be an integer from ${min} to ${max}`,
    )
  }
  return value
}

/** The `arguments` object of a tools/call, checked. */
export function toolCall(params: Record<string, unknown>): {
  name: string
  args: Record<string, unknown>
} {
  const name = stringArg(params, 'name', true)
  const args = params.arguments ?? {}
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new RpcError(RPC.INVALID_PARAMS, 'Invalid params: "arguments" must be an object')
  }
  return { name, args: args as Record<string, unknown> }
}
