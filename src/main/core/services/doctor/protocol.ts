import { isRecord } from '../../dialects/shape'
import { verdict, type DoctorCheck, type Exchange } from './types'
import { vtexRouter } from './vtex'

const MCP = 'MCP 2025-06-18'
const METHOD_NOT_FOUND = -32601
const MAX_PAGES = 20
const UNKNOWN = 'doctor/no-such-method'

/** The JSON-RPC error code a server sent, if the call failed with one. */
export function rpcCode(exchange: Exchange): number | undefined {
  const code = exchange.error?.origin === 'server' ? exchange.error.details?.code : undefined
  return typeof code === 'number' ? code : undefined
}

const initialize: DoctorCheck = {
  id: 'protocol.initialize',
  title: 'initialize answers with serverInfo',
  spec: `${MCP} § Lifecycle: initialization`,
  run: async (probe) => {
    const expected = 'the initialize result names the server (serverInfo.name)'
    const reply = { serverInfo: probe.serverInfo ?? null }
    const request = { method: 'initialize' }
    return probe.serverInfo?.name
      ? verdict('pass', expected, `server "${probe.serverInfo.name}"`, { request, reply })
      : verdict(
          'fail',
          expected,
          'no serverInfo: the server refused initialize or answered without it; the console talks to it without the handshake',
          { request, reply },
        )
  },
}

const ping: DoctorCheck = {
  id: 'protocol.ping',
  title: 'ping (or a fallback) shows the server alive',
  spec: `${MCP} § Utilities: ping`,
  run: async (probe) => {
    const expected = 'ping answers with an object, or is unknown (-32601) while tools/list answers'
    // Unknown (-32601) is an answer the check accepts, not a failure.
    const sent = await probe.request('ping', undefined, { expectError: true })
    if (sent.reply !== undefined && isRecord(sent.reply)) {
      return verdict('pass', expected, 'ping answered', sent)
    }
    if (rpcCode(sent) === METHOD_NOT_FOUND) {
      const fallback = await probe.request('tools/list')
      const both = { request: [sent.request, fallback.request], reply: [sent.error, fallback] }
      return fallback.reply !== undefined
        ? verdict('pass', expected, 'no ping method; tools/list answered instead', both)
        : verdict('fail', expected, 'no ping method and tools/list failed too', both)
    }
    const found = sent.error
      ? `ping failed: ${sent.error.message}`
      : 'ping answered with something other than an object'
    return verdict('fail', expected, found, sent)
  },
}

const toolsList: DoctorCheck = {
  id: 'protocol.tools-list',
  title: 'tools/list lists well-formed tools and its pages end',
  spec: `${MCP} § Server features: tools (listing, pagination)`,
  run: async (probe) => {
    const expected = `every page has a tools array of {name, inputSchema: {type: "object"}}; nextCursor ends within ${MAX_PAGES} pages and never repeats`
    const seen = new Set<string>()
    const names: string[] = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const sent = await probe.request('tools/list', cursor ? { cursor } : undefined)
      const reply = sent.reply
      if (!isRecord(reply) || !Array.isArray(reply.tools)) {
        return verdict('fail', expected, `page ${page + 1} has no tools array`, sent)
      }
      const bad = reply.tools.find(
        (tool) =>
          !isRecord(tool) ||
          typeof tool.name !== 'string' ||
          !isRecord(tool.inputSchema) ||
          tool.inputSchema.type !== 'object',
      )
      if (bad !== undefined) {
        return verdict('fail', expected, `a tool without a name or object inputSchema`, {
          request: sent.request,
          reply: bad,
        })
      }
      names.push(...reply.tools.map((tool) => (tool as { name: string }).name))
      const next = reply.nextCursor
      if (next === undefined || next === null || next === '') {
        return verdict('pass', expected, `${page + 1} page(s): ${names.join(', ')}`, {
          request: sent.request,
          reply: { tools: names, pages: page + 1 },
        })
      }
      if (typeof next !== 'string' || seen.has(next)) {
        return verdict(
          'fail',
          expected,
          `nextCursor ${JSON.stringify(next)} repeats or is not a string`,
          sent,
        )
      }
      seen.add(next)
      cursor = next
    }
    return verdict('fail', expected, `still paging after ${MAX_PAGES} pages`, {
      reply: { tools: names.length },
    })
  },
}

const errors: DoctorCheck = {
  id: 'protocol.errors',
  title: 'an unknown method is a JSON-RPC error',
  spec: 'JSON-RPC 2.0 § 5.1 Error object',
  run: async (probe) => {
    const expected = 'an unknown method gets a JSON-RPC error -32601 (Method not found)'
    const sent = await probe.request(UNKNOWN, undefined, { expectError: true })
    const code = rpcCode(sent)
    // The pool reads an error body sent with an HTTP error status too (RAGbox: 404).
    if (code === METHOD_NOT_FOUND) return verdict('pass', expected, 'error -32601', sent)
    // A per-method server (spec 004) has no endpoint for an unknown method: its router answers.
    if (sent.error && probe.dialect.id === 'vtex' && probe.post && probe.url) {
      const wire = await probe.post(
        { method: UNKNOWN },
        { url: vtexRouter(probe.url), expectError: true },
      )
      const body = wire.reply?.body
      const error = isRecord(body) && isRecord(body.error) ? body.error : undefined
      if (error?.code === METHOD_NOT_FOUND) {
        return verdict('pass', expected, `error -32601 (from its router)`, wire)
      }
    }
    if (code !== undefined)
      return verdict('warn', expected, `a JSON-RPC error, but code ${code}`, sent)
    if (sent.error)
      return verdict('fail', expected, `no JSON-RPC error: ${sent.error.message}`, sent)
    return verdict('fail', expected, 'the unknown method was answered with a result', sent)
  },
}

/** What every MCP server must pass, whatever its family. */
export const PROTOCOL_CHECKS: DoctorCheck[] = [initialize, ping, toolsList, errors]
