import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { builtFile } from '../../test/built'
import { createCore, type Core } from '../core/core'
import { startBrowserHost, WS_PATH, type BrowserHost, injectBridge } from './server'

const rendererDir = dirname(builtFile('renderer/index.html'))

let core: Core
let host: BrowserHost

beforeAll(async () => {
  core = await createCore({ dataDir: mkdtempSync(join(tmpdir(), 'rc-host-')), env: {} })
  host = await startBrowserHost({ core, rendererDir })
})

afterAll(async () => {
  await host.close()
  await core.dispose()
})

function connect(options: { token?: string; origin?: string; path?: string }): Promise<WebSocket> {
  const url = `ws://127.0.0.1:${host.port}${options.path ?? WS_PATH}?token=${options.token ?? host.token}`
  const ws = new WebSocket(url, { origin: options.origin ?? host.origin })
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

function request(ws: WebSocket, channel: string, body?: unknown): Promise<unknown> {
  const id = Math.floor(Math.random() * 1e9)
  return new Promise((resolve) => {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; response?: unknown }
      if (message.id === id) resolve(message.response)
    })
    ws.send(JSON.stringify({ id, channel, request: body }))
  })
}

describe('browser host', () => {
  it('prints a loopback URL carrying the token in the fragment', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`)
    expect(host.token.length).toBeGreaterThanOrEqual(32)
  })

  it('refuses a WebSocket with the wrong token', async () => {
    await expect(connect({ token: 'not-the-token' })).rejects.toThrow('HTTP 403')
  })

  it('refuses a WebSocket without a token', async () => {
    await expect(connect({ token: '' })).rejects.toThrow('HTTP 403')
  })

  it('refuses a WebSocket from another origin', async () => {
    await expect(connect({ origin: 'http://evil.example' })).rejects.toThrow('HTTP 403')
    await expect(connect({ origin: `http://localhost:${host.port}` })).rejects.toThrow('HTTP 403')
  })

  it('answers the contract over an accepted WebSocket', async () => {
    const ws = await connect({})
    const response = (await request(ws, 'app:info')) as {
      ok: boolean
      value: { productName: string; version: string }
    }
    expect(response.ok).toBe(true)
    expect(response.value.productName).toBe('RAG Console')
    expect(response.value.version).toMatch(/^\d+\.\d+\.\d+/)
    ws.close()
  })

  it('answers unknown channels and invalid requests with coded errors', async () => {
    const ws = await connect({})
    expect(await request(ws, 'fs:read', { path: '/etc/passwd' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    })
    expect(await request(ws, 'app:open-external', { url: 42 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    })
    ws.close()
  })

  it('serves the renderer with a strict CSP and the bridge injected first', async () => {
    const response = await fetch(`${host.origin}/`)
    const html = await response.text()
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}`)
    expect(csp).not.toContain('unsafe-inline')
    expect(html.indexOf('web-bridge.js')).toBeGreaterThan(0)
    expect(html.indexOf('web-bridge.js')).toBeLessThan(html.indexOf('/assets/index-'))
  })

  it('serves nothing outside the renderer folder', async () => {
    const response = await fetch(`${host.origin}/..%2f..%2fpackage.json`)
    expect(response.status).toBe(404)
    expect((await fetch(`${host.origin}/`, { method: 'POST' })).status).toBe(405)
  })
})

describe('injectBridge', () => {
  it('puts the bridge before the first script', () => {
    const html = '<head><script type="module" src="./a.js"></script></head>'
    expect(injectBridge(html)).toMatch(
      /web-bridge\.js"><\/script>\s*<script type="module" src="\.\/a\.js"/,
    )
  })
})

describe('browser host events', () => {
  it('forwards core events with known secrets redacted', async () => {
    const ws = await connect({})
    const received = new Promise<unknown>((resolve) => {
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { event?: unknown }
        if (message.event) resolve(message.event)
      })
    })
    core.redactor.add('canary-secret-value-123')
    core.events.emit('app:notice', {
      level: 'warning',
      message: 'token canary-secret-value-123 leaked?',
      at: 1,
    })
    const event = (await received) as { name: string; payload: { message: string } }
    expect(event.name).toBe('app:notice')
    expect(event.payload.message).not.toContain('canary-secret-value-123')
    expect(event.payload.message).toContain('token ')
    ws.close()
  })
})
