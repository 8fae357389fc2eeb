import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { contentSecurityPolicy } from '#shared/csp'
import type { IpcEvent, IpcResponse } from '#shared/ipc/wire'
import {
  pageWants,
  parseSubscription,
  PROGRESS_EVENTS,
  type EventName,
  type OptIn,
  type Subscription,
} from '#shared/ipc/events'
import type { Core } from '#core/core'
import { dispatch } from '#core/api/dispatch'
import { createHandlers, type Handlers } from '#core/api/handlers'

/**
 * Messages on the host's WebSocket. A page sends requests, and the opt-in events it wants
 * (`OptIn`s, see events.ts) whenever that set changes.
 */
export type HostRequest = { id: number; channel: string; request?: unknown }
export type HostClientMessage = HostRequest | { subscribe: OptIn[] }
export type HostServerMessage = { id: number; response: unknown } | { event: IpcEvent }

export interface BrowserHost {
  /** The URL to open, token included (in the fragment, so it never reaches logs or Referer). */
  url: string
  origin: string
  port: number
  token: string
  close(): Promise<void>
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

export const WS_PATH = '/ipc'
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024
/**
 * What the host keeps queued for a socket that does not read before it closes that socket. A
 * search over 500 servers × 100 hits sends about 60 MB (progress events, then the reply) faster
 * than loopback carries it, to a page that reads all the while.
 */
export const MAX_BUFFERED_BYTES = 128 * 1024 * 1024
/** Requests one socket may have in flight; beyond it a request is refused at once. */
export const MAX_IN_FLIGHT = 64
/** WebSocket close code for data the endpoint cannot accept. */
const UNSUPPORTED_DATA = 1003
/** WebSocket close code for "try again later": the page's bridge reconnects. */
const TRY_AGAIN_LATER = 1013

const BUSY: IpcResponse<never> = {
  ok: false,
  error: {
    code: 'rate_limited',
    origin: 'local',
    message: `the console host already has ${MAX_IN_FLIGHT} requests in flight on this connection: wait for their replies, then try again`,
  },
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * Serves the built renderer on 127.0.0.1, to requests naming this machine (Host `127.0.0.1`,
 * `localhost` or `[::1]` with its port) only, and carries the IPC contract over a WebSocket
 * that demands this launch's random token and our own Origin. The renderer cannot tell it apart
 * from Electron: `web-bridge.js` gives it the same `window.ragConsole`.
 */
export async function startBrowserHost(options: {
  core: Core
  rendererDir: string
  port?: number
  /** The contract's handlers; built from `core` when absent. */
  handlers?: Handlers | undefined
  /** Replaces {@link MAX_BUFFERED_BYTES} (tests of the limit use a small one). */
  maxBufferedBytes?: number
  /** Told of every page that opened its IPC socket (token and origin checked). */
  onClient?: () => void
  /** Told of every reply sent, by channel (e.g. to notice a page has its server list). */
  onAnswered?: (channel: string) => void
}): Promise<BrowserHost> {
  const { core, rendererDir } = options
  const maxBuffered = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES
  const token = randomBytes(24).toString('base64url')
  const handlers = options.handlers ?? createHandlers(core)
  const log = core.log.child({ module: 'host' })
  let origin = ''

  const server = createServer((req, res) => {
    void serveStatic(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })

  /**
   * A page reached under another name (a DNS rebinding page: `evil.example` made to resolve to
   * 127.0.0.1) sends that name as Host: only this machine's own names for the port are served.
   */
  const ownHost = (req: IncomingMessage): boolean => {
    const host = req.headers.host?.toLowerCase()
    const port = (server.address() as AddressInfo | null)?.port
    return (
      host !== undefined && ['127.0.0.1', 'localhost', '[::1]'].some((n) => host === `${n}:${port}`)
    )
  }
  const MISDIRECTED =
    'this console host answers only to 127.0.0.1, localhost or [::1] with its port'

  async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!ownHost(req)) {
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end(MISDIRECTED)
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end()
      return
    }
    const pathname = requestPath(req.url, origin)
    if (pathname === null) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad request target')
      return
    }
    const file = normalize(join(rendererDir, pathname === '/' ? 'index.html' : pathname))
    if (!file.startsWith(rendererDir + sep)) {
      res.writeHead(404).end()
      return
    }
    let body: Buffer
    try {
      body = await readFile(file)
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found')
      return
    }
    if (file.endsWith('index.html')) body = Buffer.from(injectBridge(body.toString('utf8')))
    res.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': contentSecurityPolicy({
        connectSrc: [`${origin.replace('http:', 'ws:')}`],
      }),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    })
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
  })

  server.on('upgrade', (req, socket: Socket, head) => {
    if (!ownHost(req)) {
      refuseUpgrade(socket, '421 Misdirected Request')
      return
    }
    const url = parseUrl(req.url, origin)
    if (!url) {
      // Not the target itself: it may carry the token.
      log.warn('refused a WebSocket upgrade: its request target is not a valid URL', {
        targetLength: req.url?.length ?? 0,
      })
      refuseUpgrade(socket, '400 Bad Request')
      return
    }
    const allowed =
      url.pathname === WS_PATH &&
      req.headers.origin === origin &&
      sameSecret(url.searchParams.get('token') ?? '', token)
    if (!allowed) {
      refuseUpgrade(socket, '403 Forbidden')
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  /** Each page's socket and the opt-in events it subscribed to. */
  const clients = new Map<WebSocket, Subscription>()
  /** The page whose request a progress event reports on, while the request runs. */
  const owners = new Map<string, WebSocket>()
  wss.on('connection', (ws) => {
    clients.set(ws, new Map())
    options.onClient?.()
    let inFlight = 0
    ws.on('close', () => clients.delete(ws))
    // ws has already closed the socket with the matching code (1002, 1007, 1009); without a
    // listener the error would be thrown and end the process.
    ws.on('error', (error) => {
      log.warn('closed a WebSocket after a protocol error', { error: error.message })
    })
    ws.on('message', (data, isBinary) => {
      const message = parseClientMessage(data, isBinary)
      if (typeof message === 'string') {
        ws.close(UNSUPPORTED_DATA, message)
        return
      }
      if ('subscription' in message) {
        clients.set(ws, message.subscription)
        return
      }
      // Refused at once rather than queued: a page never has this many calls open.
      if (inFlight >= MAX_IN_FLIGHT) {
        deliver(ws, JSON.stringify({ id: message.id, response: BUSY } satisfies HostServerMessage))
        return
      }
      inFlight += 1
      // A request that reports progress: its events go to this page (the first to use its id).
      const owned = ownedBy(message)
      if (owned && !owners.has(owned)) owners.set(owned, ws)
      void answer(message).then((text) => {
        inFlight -= 1
        // Every progress event came before the reply: nothing more about this request.
        if (owned && owners.get(owned) === ws) owners.delete(owned)
        deliver(ws, text)
        options.onAnswered?.(String(message.channel))
      })
    })
  })

  /** The reply to one request as wire text; a reply JSON cannot carry becomes an error. */
  async function answer(message: HostRequest): Promise<string> {
    try {
      const response = await dispatch(handlers, message.channel, message.request)
      return JSON.stringify({ id: message.id, response } satisfies HostServerMessage)
    } catch (error) {
      const channel =
        typeof message.channel === 'string' ? message.channel.slice(0, 80) : 'a request'
      log.error('could not send the reply to a request', { channel, error })
      const reason = error instanceof Error ? error.message : 'unknown error'
      const response: IpcResponse<never> = {
        ok: false,
        error: {
          code: 'internal',
          message: core.redactor.redactText(
            `${channel}: the host could not send its reply (${reason}); see the host's log`,
          ),
        },
      }
      return JSON.stringify({ id: message.id, response } satisfies HostServerMessage)
    }
  }

  /**
   * Sends unless the socket's peer has stopped reading: with more than the buffered limit
   * still queued, the socket is closed instead of buffering without bound.
   */
  function deliver(ws: WebSocket, text: string): void {
    if (ws.readyState !== ws.OPEN) return
    if (ws.bufferedAmount > maxBuffered) {
      log.warn('closed a WebSocket that does not read its messages', {
        bufferedBytes: ws.bufferedAmount,
        limitBytes: maxBuffered,
      })
      ws.close(TRY_AGAIN_LATER, `too slow: over ${maxBuffered >> 20} MiB unread`)
      return
    }
    ws.send(text)
  }

  const unsubscribe = core.events.onAny((name, payload) => {
    const owner = owners.get(progressOf(name, payload) ?? '')
    const pages = [...clients].filter(([ws, subscribed]) =>
      owner ? ws === owner : pageWants(subscribed, name, payload),
    )
    // Nobody shows it: not even redacted and serialised.
    if (pages.length === 0) return
    const safe = core.redactor.redactValues(payload)
    const text = JSON.stringify({ event: { name, payload: safe } } satisfies HostServerMessage)
    for (const [ws] of pages) deliver(ws, text)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  origin = `http://127.0.0.1:${port}`
  core.ownPorts.add(port)

  return {
    url: `${origin}/#token=${token}`,
    origin,
    port,
    token,
    async close() {
      core.ownPorts.delete(port)
      unsubscribe()
      for (const ws of clients.keys()) ws.terminate()
      wss.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // Browsers keep idle HTTP connections open; don't wait for them.
      server.closeAllConnections()
      await closed
    },
  }
}

/** The request target as a URL on our origin, or null when it is not one. */
function parseUrl(target: string | undefined, origin: string): URL | null {
  try {
    return new URL(target ?? '/', origin)
  } catch {
    return null
  }
}

/** The decoded path of a request target, or null when it is not a URL or not decodable. */
function requestPath(target: string | undefined, origin: string): string | null {
  const url = parseUrl(target, origin)
  if (!url) return null
  try {
    return decodeURIComponent(url.pathname)
  } catch {
    return null
  }
}

function refuseUpgrade(socket: Socket, status: string): void {
  socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`)
  socket.destroy()
}

/** A subscription, as the close reason for a bad one shows it (a close reason is ≤ 123 bytes). */
const SUBSCRIBE_FORM = '{"subscribe": [{"event": "workbench:protocol", "server": ID}]}'

/** The progress events of a page's request (`search:progress` of a `search:run`), as a key. */
function ownedBy(message: HostRequest): string | undefined {
  for (const [event, { channel, key }] of Object.entries(PROGRESS_EVENTS)) {
    if (message.channel !== channel) continue
    const id = (message.request as Record<string, unknown> | undefined)?.[key]
    return typeof id === 'string' ? `${event}\u0000${id}` : undefined
  }
  return undefined
}

/** The key of a progress event's request, or undefined for any other event. */
function progressOf(name: EventName, payload: unknown): string | undefined {
  const progress = PROGRESS_EVENTS[name as keyof typeof PROGRESS_EVENTS]
  if (!progress) return undefined
  const id = (payload as Record<string, unknown>)[progress.key]
  return typeof id === 'string' ? `${name}\u0000${id}` : undefined
}

/** A message from the page, or why it is not one (a close reason, ≤ 123 bytes). */
function parseClientMessage(
  data: RawData,
  isBinary: boolean,
): HostRequest | { subscription: Subscription } | string {
  if (isBinary) return 'binary messages are not supported: send JSON text'
  let message: unknown
  try {
    message = JSON.parse(data.toString())
  } catch {
    message = undefined
  }
  const object =
    typeof message === 'object' && message !== null && !Array.isArray(message)
      ? (message as Record<string, unknown>)
      : undefined
  if (object && 'subscribe' in object && !('id' in object)) {
    const subscription = parseSubscription(object.subscribe)
    return subscription
      ? { subscription }
      : `invalid subscription: expected opt-in events, e.g. ${SUBSCRIBE_FORM}`
  }
  return typeof object?.id === 'number'
    ? (object as HostRequest)
    : 'invalid message: expected {"id": number, "channel": string, "request"?: any}'
}

/** Loads the bridge before the app's own module so `window.ragConsole` exists when it runs. */
export function injectBridge(html: string): string {
  const tag = '<script type="module" src="./web-bridge.js"></script>'
  const at = html.indexOf('<script')
  return at >= 0
    ? `${html.slice(0, at)}${tag}\n    ${html.slice(at)}`
    : html.replace('</head>', `${tag}</head>`)
}
