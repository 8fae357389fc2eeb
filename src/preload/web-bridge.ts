/**
 * The browser host's stand-in for the Electron preload: gives the page the same
 * `window.ragConsole`, carried over the host's token-protected WebSocket.
 */
import { type IpcResponse, type RagConsoleApi } from '#shared/ipc/wire'
import { isEventName, type OptIn } from '#shared/ipc/events'
import { PageListeners } from '#shared/ipc/listeners'
import { isExternalHttpUrl } from '#shared/csp'
import { isErrorInfo } from '#shared/errors'

const TOKEN_KEY = 'rag-console-host-token'

function takeToken(): string {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token')
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash)
    // Keep the token out of the visible URL and the history.
    history.replaceState(null, '', location.pathname + location.search)
    return fromHash
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

const token = takeToken()
const pending = new Map<
  number,
  { channel: string; resolve: (response: IpcResponse<unknown>) => void }
>()
/** Opt-in events go to the host whenever they change; a new socket gets them first. */
const listeners = new PageListeners((wanted) => {
  if (socket?.readyState === WebSocket.OPEN) socket.send(subscription(wanted))
})
let queue: string[] = []
let socket: WebSocket | null = null
let nextId = 1
let retryMs = 250
let everOpened = false
/** Set once the host refused us; every call then fails at once with it. */
let refused: string | null = null

const REFUSED =
  "the console host refused this page: open the exact URL that `npm run start:browser` printed (it carries this launch's token)"

function connect(): void {
  const url = `${location.origin.replace(/^http/, 'ws')}/ipc?token=${encodeURIComponent(token)}`
  const ws = new WebSocket(url)
  socket = ws
  ws.onopen = () => {
    everOpened = true
    retryMs = 250
    const wanted = listeners.optedIn()
    if (wanted.length > 0) ws.send(subscription(wanted))
    for (const text of queue) ws.send(text)
    queue = []
  }
  ws.onmessage = (message) => receive(String(message.data))
  ws.onclose = () => {
    socket = null
    if (!everOpened) {
      // Refused at the handshake (wrong token or origin): retrying cannot help.
      failAll(REFUSED)
      return
    }
    failAll('lost the connection to the console host; retrying')
    setTimeout(connect, retryMs)
    retryMs = Math.min(retryMs * 2, 5000)
  }
}

/** The host writes `{"id":N,` first: the call a reply cut short was meant to answer. */
const REPLY_ID = /^\{"id":(\d+)[,}]/

/**
 * Passes an event to its listeners and a reply to its call. Anything else is dropped with a
 * warning instead of throwing in the page; a call whose reply is malformed fails with a
 * `protocol` error rather than waiting forever.
 */
function receive(text: string): void {
  const data = parseJson(text)
  if (isObject(data) && isObject(data.event) && isEventName(data.event.name)) {
    listeners.emit(data.event.name, data.event.payload)
    return
  }
  if (isObject(data) && typeof data.id === 'number' && isResponse(data.response)) {
    settle(data.id, () => data.response as IpcResponse<unknown>)
    return
  }
  console.warn(
    `ragConsole: dropped a malformed message from the console host (${text.length} characters)`,
  )
  const id = isObject(data) && typeof data.id === 'number' ? data.id : REPLY_ID.exec(text)?.[1]
  if (id === undefined) return
  settle(Number(id), (channel) => ({
    ok: false,
    error: {
      code: 'protocol',
      message: `the console host sent a malformed reply to ${channel}: reload the page and try again`,
    },
  }))
}

function settle(id: number, response: (channel: string) => IpcResponse<unknown>): void {
  const call = pending.get(id)
  if (!call) return
  pending.delete(id)
  call.resolve(response(call.channel))
}

const subscription = (wanted: OptIn[]): string => JSON.stringify({ subscribe: wanted })

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isResponse(value: unknown): value is IpcResponse<unknown> {
  return isObject(value) && (value.ok === true || (value.ok === false && isErrorInfo(value.error)))
}

/** Answers every pending call (queued ones included) with the error. */
function failAll(message: string): void {
  for (const { resolve } of pending.values()) {
    resolve({ ok: false, error: { code: 'unreachable', message } })
  }
  pending.clear()
  queue = []
  if (!everOpened) refused = message
}

function send(channel: string, request: unknown): Promise<IpcResponse<unknown>> {
  if (refused)
    return Promise.resolve({ ok: false, error: { code: 'unreachable', message: refused } })
  const id = nextId++
  const text = JSON.stringify({ id, channel, request })
  return new Promise((resolve) => {
    pending.set(id, { channel, resolve })
    if (socket?.readyState === WebSocket.OPEN) socket.send(text)
    else queue.push(text)
  })
}

const api: RagConsoleApi = {
  invoke: (channel, ...args) => send(channel, args[0]) as never,
  on: (event, listener, scope) => listeners.on(event, listener, scope),
  async openExternal(url) {
    if (!navigator.userActivation.isActive || !isExternalHttpUrl(url)) return false
    // With noopener, window.open returns null even when the tab opened.
    window.open(url, '_blank', 'noopener,noreferrer')
    return true
  },
}

Object.defineProperty(window, 'ragConsole', { value: Object.freeze(api), writable: false })
if (token) connect()
else refused = REFUSED
