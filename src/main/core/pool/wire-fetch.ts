import type { IncomingHttpHeaders } from 'node:http'
import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { Agent, request, type Dispatcher } from 'undici'

/** Keep-alive connections per origin, shared by every server of the process. */
let agent: Agent | undefined

/** Statuses whose Response must not have a body. */
const NULL_BODY = new Set([204, 205, 304])

/**
 * The pool's base `fetch`. JSON-RPC POSTs (a string body to a plain http(s) URL) and event-stream
 * GETs go out through
 * undici's `request` on one keep-alive agent and come back as a WHATWG Response: the WHATWG
 * fetch costs ~3× the CPU per call (Request objects, web streams, spec bookkeeping), paid once
 * per server in a fan-out. Everything else (other GETs, form bodies, redirects, URLs with
 * credentials) goes to `fallback`, so its behaviour stays the WHATWG fetch's.
 */
export function wireFetch(fallback: FetchLike = (url, init) => fetch(url, init)): FetchLike {
  return async (url, init = {}) => {
    const target = url instanceof URL ? url : new URL(url)
    if (!onTheWire(target, init)) return fallback(url, init)
    const signal = init.signal ?? undefined
    let reply: Dispatcher.ResponseData
    const get = typeof init.body !== 'string'
    try {
      reply = await request(target, {
        method: get ? 'GET' : 'POST',
        headers: requestHeaders(init.headers),
        ...(get ? {} : { body: init.body as string }),
        ...(signal === undefined ? {} : { signal }),
        dispatcher: (agent ??= new Agent()),
      })
    } catch (error) {
      throw failure(error, signal, 'fetch failed')
    }
    const { statusCode, statusText, headers, body } = reply
    if (statusCode >= 300 && statusCode < 400 && headers.location !== undefined) {
      // The server did not take the request; fetch follows redirects the way the spec says.
      await body.dump()
      return fallback(url, init)
    }
    const responseInit = { status: statusCode, statusText, headers: responseHeaders(headers) }
    if (NULL_BODY.has(statusCode)) {
      await body.dump()
      return new Response(null, responseInit)
    }
    if (responseInit.headers.get('content-type')?.includes('text/event-stream')) {
      // A stream of events (progress, then the reply): handed on as it arrives.
      const stream = Readable.toWeb(body) as WebReadableStream<Uint8Array>
      return new Response(stream as ReadableStream<Uint8Array>, responseInit)
    }
    let text: string
    try {
      text = await body.text()
    } catch (error) {
      throw failure(error, signal, 'terminated')
    }
    return textReply(text, responseInit)
  }
}

/**
 * A reply read whole as text: `json()` and `text()` answer from that text, not by streaming it
 * through the body again (encoded, chunked, decoded: ~6 % of the console's time while the last
 * replies of a 100-server search come in). `body` and `clone()` stay as a Response's.
 */
function textReply(text: string, init: ResponseInit): Response {
  const response = new Response(text, init)
  // Replaceable, as the methods they shadow are (the reply repair wraps `json`).
  const method = (value: () => Promise<unknown>): PropertyDescriptor => ({
    value,
    writable: true,
    configurable: true,
  })
  Object.defineProperties(response, {
    json: method(() => new Promise((resolve) => resolve(JSON.parse(text)))),
    text: method(() => Promise.resolve(text)),
  })
  return response
}

/**
 * JSON-RPC POSTs, and the GETs that open a server's event stream (standalone, or resuming with
 * `Last-Event-ID`): the WHATWG fetch's first use costs tens of ms, and a stream opened that
 * much later than the POSTs around it arrives out of the order the SDK sent them in.
 */
function onTheWire(url: URL, init: RequestInit): boolean {
  const method = (init.method ?? 'GET').toUpperCase()
  const plain =
    (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password
  if (!plain) return false
  if (method === 'POST') return typeof init.body === 'string'
  return method === 'GET' && init.body == null && acceptsEvents(init.headers)
}

function acceptsEvents(given: RequestInit['headers']): boolean {
  const headers = given instanceof Headers ? given : new Headers(given)
  return headers.get('accept')?.includes('text/event-stream') === true
}

/** The headers fetch would send: no compression asked for (nothing decodes it here). */
function requestHeaders(given: RequestInit['headers']): Record<string, string> {
  const headers = Object.fromEntries(given instanceof Headers ? given : new Headers(given))
  headers['accept-encoding'] ??= 'identity'
  headers['user-agent'] ??= 'node'
  return headers
}

function responseHeaders(given: IncomingHttpHeaders): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  return headers
}

/** As fetch fails: the abort's reason when aborted, else a TypeError with the cause. */
function failure(error: unknown, signal: AbortSignal | undefined, message: string): unknown {
  if (signal?.aborted) return signal.reason
  return new TypeError(message, { cause: error })
}
