import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** Outcome of repairing one incoming JSON-RPC message. */
export interface RepairOutcome {
  /** The message to deliver; absent when nothing usable could be made of it. */
  message?: JSONRPCMessage
  /** What was bent and tolerated, e.g. `missing "jsonrpc"`. */
  fixes: string[]
  /** Why the reply is unusable; the call it answers must fail as `protocol`. */
  problem?: string
  /** The id the reply carried, when it had one. */
  id?: string | number
}

/** Code of the synthetic error that replaces an unusable reply (JSON-RPC "internal error"). */
export const MALFORMED_REPLY_CODE = -32603

const RESPONSE_KEYS = new Set(['jsonrpc', 'id', 'result', 'error'])
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params'])

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isId = (value: unknown): value is string | number =>
  typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))

/**
 * Makes a message from a server that bends JSON-RPC acceptable to the SDK's strict schema:
 * a missing or wrong `jsonrpc` is added, unknown top-level keys are dropped, a malformed error
 * object is normalised. A reply with an id that cannot be used becomes an error reply for that
 * id (so the waiting call fails at once instead of timing out) and reports the problem.
 */
export function repairMessage(value: unknown): RepairOutcome {
  if (!isObject(value)) return { fixes: [], problem: `not a JSON-RPC object: ${describe(value)}` }
  const fixes: string[] = []
  if (value.jsonrpc !== '2.0') fixes.push('missing "jsonrpc": "2.0"')
  const id = isId(value.id) ? value.id : undefined

  if ('result' in value || 'error' in value) {
    noteExtraKeys(value, RESPONSE_KEYS, fixes)
    if (value.error !== undefined && value.error !== null) {
      const error = normaliseError(value.error, fixes)
      const message = (
        id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error }
      ) as JSONRPCMessage
      return { message, fixes, ...(id === undefined ? {} : { id }) }
    }
    if (id === undefined) return { fixes, problem: 'a reply without a usable "id"' }
    if (!isObject(value.result)) {
      return malformed(id, `"result" is ${describe(value.result)}, not an object`, fixes)
    }
    // A clean reply is delivered as the very object it came as.
    const message = fixes.length === 0 ? value : { jsonrpc: '2.0', id, result: value.result }
    return { message: message as JSONRPCMessage, fixes, id }
  }

  if (typeof value.method === 'string') {
    noteExtraKeys(value, REQUEST_KEYS, fixes)
    const message: Record<string, unknown> = { jsonrpc: '2.0', method: value.method }
    if (id !== undefined) message.id = id
    if (isObject(value.params)) message.params = value.params
    return { message: message as JSONRPCMessage, fixes, ...(id === undefined ? {} : { id }) }
  }

  if (id !== undefined) return malformed(id, 'neither "result", "error" nor "method"', fixes)
  return { fixes, problem: `not a JSON-RPC message: ${describe(value)}` }
}

/** Parses one text message (a stdio line, an HTTP body, an SSE data field) and repairs it. */
export function repairText(text: string): RepairOutcome[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return [{ fixes: [], problem: `not JSON: ${JSON.stringify(text.slice(0, 80))}` }]
  }
  return Array.isArray(parsed) ? parsed.map(repairMessage) : [repairMessage(parsed)]
}

/** An error reply standing in for an unusable reply to request `id`. */
export function malformedReply(id: string | number, problem: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: MALFORMED_REPLY_CODE, message: `malformed reply: ${problem}` },
  } as JSONRPCMessage
}

/** Notes keys outside `known`; a clean message allocates nothing (this runs on every reply). */
function noteExtraKeys(value: Record<string, unknown>, known: Set<string>, fixes: string[]): void {
  let extra: string[] | undefined
  for (const key in value) if (!known.has(key)) (extra ??= []).push(key)
  if (extra) fixes.push(`extra top-level keys: ${extra.join(', ')}`)
}

function malformed(id: string | number, problem: string, fixes: string[]): RepairOutcome {
  return { message: malformedReply(id, problem), fixes, problem, id }
}

function normaliseError(error: unknown, fixes: string[]): Record<string, unknown> {
  if (!isObject(error)) {
    fixes.push('"error" is not an object')
    return { code: MALFORMED_REPLY_CODE, message: String(error) }
  }
  const code =
    typeof error.code === 'number' && Number.isInteger(error.code) ? error.code : Number(error.code)
  const normalised: Record<string, unknown> = {
    code: Number.isInteger(code) ? code : MALFORMED_REPLY_CODE,
    message: typeof error.message === 'string' ? error.message : String(error.message ?? 'error'),
  }
  if (normalised.code !== error.code || normalised.message !== error.message) {
    fixes.push('malformed "error" object')
  }
  if (error.data !== undefined) normalised.data = error.data
  return normalised
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`
}
