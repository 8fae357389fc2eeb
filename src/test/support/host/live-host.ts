import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { connect as tcpConnect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, expect } from 'vitest'
import WebSocket from 'ws'
import { builtFile } from '../process/built'
import type { Handlers } from '#core/api/handlers'
import { createCore, type Core } from '#core/core'
import type { KeychainEntry, OpenKeychainEntry } from '#core/secrets/keychain-store'
import { startBrowserHost, WS_PATH, type BrowserHost } from '#main/host/server'

/** A browser host on a free port over a real core, for the host's tests. */
export interface LiveHost {
  core: Core
  host: BrowserHost
  /** The core's log lines so far. */
  logLines(): string[]
  close(): Promise<void>
}

/**
 * Starts the host on the built renderer with a core on a fresh data folder and an empty
 * registry (no server to connect, nothing spawned), the OS keychain unavailable (random
 * requests must not write to it) unless `openEntry` stands in for it, and its log kept out of
 * the test output. `handlers` replaces the contract's handlers built from the core.
 */
export async function startLiveHost(
  options: {
    openEntry?: OpenKeychainEntry
    handlers?: (core: Core) => Handlers
    maxBufferedBytes?: number
  } = {},
): Promise<LiveHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rc-host-'))
  const configPath = join(dataDir, 'rag-mcp.json')
  writeFileSync(configPath, '{}\n')
  const core = await createCore({
    dataDir,
    configPath,
    env: {},
    watch: false,
    logToStderr: null,
    keychain: {
      openEntry:
        options.openEntry ?? (() => Promise.reject(new Error('no keychain in host tests'))),
    },
  })
  const host = await startBrowserHost({
    core,
    rendererDir: dirname(builtFile('renderer/index.html')),
    handlers: options.handlers?.(core),
    ...(options.maxBufferedBytes ? { maxBufferedBytes: options.maxBufferedBytes } : {}),
  })
  return {
    core,
    host,
    logLines: () => readFileSync(join(dataDir, 'logs/main.log'), 'utf8').split('\n'),
    async close() {
      await host.close()
      await core.dispose()
    },
  }
}

/** A host over a live core with an empty renderer folder, for tests of what its socket carries. */
export function startWireHost(core: Core): Promise<BrowserHost> {
  return startBrowserHost({ core, rendererDir: mkdtempSync(join(tmpdir(), 'rc-wire-')) })
}

/** Opens the host's WebSocket; rejects with `HTTP <status>` when the upgrade is refused. */
export function connect(
  host: BrowserHost,
  options: { token?: string; origin?: string; path?: string } = {},
): Promise<WebSocket> {
  const url = `ws://127.0.0.1:${host.port}${options.path ?? WS_PATH}?token=${options.token ?? host.token}`
  return opened(new WebSocket(url, { origin: options.origin ?? host.origin }))
}

function opened(ws: WebSocket): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

/**
 * Opens the host's WebSocket and stops reading from it: its TCP socket stays paused, so what
 * the host sends piles up in the kernel and then in the host, until `resume()`.
 */
export async function connectStalled(
  host: BrowserHost,
): Promise<{ ws: WebSocket; resume(): void }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}${WS_PATH}?token=${host.token}`, {
    origin: host.origin,
  })
  const socket = new Promise<Socket>((resolve) => {
    ws.once('upgrade', (response) => resolve(response.socket as Socket))
  })
  await opened(ws)
  const tcp = await socket
  tcp.pause()
  return { ws, resume: () => void tcp.resume() }
}

/**
 * A keychain whose unlock prompt nobody answers until `answer()`: every call into it stays in
 * flight (the OS side does not reply), then succeeds.
 */
export function unansweredKeychain(): { openEntry: OpenKeychainEntry; answer(): void } {
  let answer = (): void => undefined
  const answered = new Promise<void>((resolve) => (answer = resolve))
  const entry: KeychainEntry = {
    getPassword: () => answered.then(() => null),
    setPassword: () => answered,
    deleteCredential: () => answered.then(() => false),
  }
  return { openEntry: () => Promise.resolve(entry), answer: () => answer() }
}

/** Sends one request and resolves with the reply carrying its id. */
export function request(ws: WebSocket, channel: string, body?: unknown): Promise<unknown> {
  const id = Math.floor(Math.random() * 1e9)
  return new Promise((resolve) => {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; response?: unknown }
      if (message.id === id) resolve(message.response)
    })
    ws.send(JSON.stringify({ id, channel, request: body }))
  })
}

/** The host still serves the renderer and answers a call on a fresh socket. */
export async function expectServing(host: BrowserHost): Promise<void> {
  expect((await fetch(`${host.origin}/`)).status).toBe(200)
  const ws = await connect(host)
  expect(await request(ws, 'app:info')).toMatchObject({ ok: true })
  ws.close()
}

/** Resolves with the close code and reason the host sent. */
export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => {
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }))
  })
}

/**
 * Writes `bytes` on a fresh TCP connection, half-closes it and resolves with everything the
 * host answered until it closed the connection; rejects when it stays open past the deadline.
 */
export function rawExchange(port: number, bytes: Uint8Array, timeoutMs = 5_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the host kept the connection open past ${timeoutMs} ms`))
    }, timeoutMs)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    // A reset is an answer too: the host dropped a request it could not parse.
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks))
    })
    socket.end(bytes)
  })
}

/** The HTTP status of a raw answer, or `null` when the host closed without a status line. */
export function statusOf(answer: Buffer): number | null {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(answer.toString('latin1'))
  return match ? Number(match[1]) : null
}

/** A WebSocket upgrade request for `target`, with our origin unless told otherwise. */
export function upgradeRequest(
  host: BrowserHost,
  target: string,
  headers: Record<string, string> = {},
): string {
  const all = {
    Host: `127.0.0.1:${host.port}`,
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version': '13',
    Origin: host.origin,
    ...headers,
  }
  const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}`)
  return `GET ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`
}

/**
 * Records uncaught exceptions and unhandled rejections while it is on: a host that survives
 * only because the test runner caught its crash has still crashed.
 */
export function recordUncaught(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = []
  const record = (error: unknown): void => void errors.push(error)
  process.on('uncaughtException', record)
  process.on('unhandledRejection', record)
  return {
    errors,
    stop() {
      process.off('uncaughtException', record)
      process.off('unhandledRejection', record)
    },
  }
}

/** Fails each test of the file after which something was thrown uncaught (see {@link recordUncaught}). */
export function failOnUncaught(): void {
  let uncaught: ReturnType<typeof recordUncaught>
  beforeEach(() => {
    uncaught = recordUncaught()
  })
  afterEach(() => {
    uncaught.stop()
    expect(uncaught.errors).toEqual([])
  })
}
