import { get as httpGet } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { injectBridge, type BrowserHost } from './server'
import {
  closed,
  connect as connectTo,
  expectServing as expectServingOn,
  rawExchange,
  failOnUncaught,
  request,
  startLiveHost,
  statusOf,
  upgradeRequest,
  type LiveHost,
} from '#test/support/host/live-host'

let live: LiveHost
let core: LiveHost['core']
let host: BrowserHost

beforeAll(async () => {
  live = await startLiveHost()
  ;({ core, host } = live)
})

afterAll(async () => {
  await live.close()
})

failOnUncaught()

const connect = (options: Parameters<typeof connectTo>[1] = {}): ReturnType<typeof connectTo> =>
  connectTo(host, options)

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

  it('answers only to its own Host: a rebinding name gets neither the page nor a socket', async () => {
    const get = (name: string): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const req = httpGet(
          { host: '127.0.0.1', port: host.port, path: '/', headers: { Host: name } },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (chunk: Buffer) => chunks.push(chunk))
            res.on('end', () =>
              resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }),
            )
          },
        )
        req.on('error', reject)
      })
    for (const name of [`127.0.0.1:${host.port}`, `localhost:${host.port}`, `[::1]:${host.port}`]) {
      expect((await get(name)).status, name).toBe(200)
    }
    for (const name of [
      `rebind.evil.example:${host.port}`,
      'localhost',
      `127.0.0.1:${host.port + 1}`,
      `localhost.evil.example:${host.port}`,
    ]) {
      const answer = await get(name)
      expect(answer.status, name).toBe(421)
      expect(answer.body).not.toContain('web-bridge.js')
    }
    const upgrade = upgradeRequest(host, `/ipc?token=${host.token}`, {
      Host: `rebind.evil.example:${host.port}`,
    })
    expect(statusOf(await rawExchange(host.port, Buffer.from(upgrade)))).toBe(421)
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

describe('browser host under hostile input', () => {
  const expectServing = (): Promise<void> => expectServingOn(host)

  it.each(['//[', 'http://[', 'http://%zz/'])(
    'answers 400 to an upgrade whose target %s is not a URL, logs it and keeps serving',
    async (target) => {
      const answer = await rawExchange(host.port, Buffer.from(upgradeRequest(host, target)))
      expect(statusOf(answer)).toBe(400)
      expect(live.logLines().some((line) => line.includes('not a valid URL'))).toBe(true)
      await expectServing()
    },
  )

  it('logs a refused upgrade without its target, which may carry the token', async () => {
    const target = `http://%zz/ipc?token=${host.token}`
    const answer = await rawExchange(host.port, Buffer.from(upgradeRequest(host, target)))
    expect(statusOf(answer)).toBe(400)
    const log = live.logLines().join('\n')
    expect(log).toContain('not a valid URL')
    expect(log).not.toContain(host.token)
  })

  it('answers 400, not 500, to a path with malformed percent-encoding or no URL', async () => {
    expect((await fetch(`${host.origin}/%`)).status).toBe(400)
    expect((await fetch(`${host.origin}/assets/%E0%A4%A`)).status).toBe(400)
    const answer = await rawExchange(
      host.port,
      Buffer.from(`GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`),
    )
    expect(statusOf(answer)).toBe(400)
    await expectServing()
  })

  it('closes a socket that sends invalid UTF-8 with 1007; other sockets live on', async () => {
    const bystander = await connect()
    const ws = await connect()
    const close = closed(ws)
    ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false })
    expect((await close).code).toBe(1007)
    expect(await request(bystander, 'app:info')).toMatchObject({ ok: true })
    bystander.close()
    await expectServing()
  })

  it('closes a socket that sends a message over the size limit with 1009', async () => {
    const ws = await connect()
    // The host may close before the client has written it all.
    ws.on('error', () => undefined)
    const close = closed(ws)
    ws.send(Buffer.alloc(16 * 1024 * 1024 + 1, 0x20), { binary: false })
    expect((await close).code).toBe(1009)
    await expectServing()
  })

  it.each(['42', 'null', '"app:info"', '[1, "app:info"]', '{"id": "1", "channel": "app:info"}'])(
    'closes a socket that sends %s (not a request object) with 1003 and says why',
    async (text) => {
      const ws = await connect()
      const close = closed(ws)
      ws.send(text)
      expect(await close).toEqual({
        code: 1003,
        reason: expect.stringContaining('expected {"id": number, "channel": string'),
      })
      await expectServing()
    },
  )

  it('closes a socket that sends binary data with 1003', async () => {
    const ws = await connect()
    const close = closed(ws)
    ws.send(Buffer.from(JSON.stringify({ id: 1, channel: 'app:info' })), { binary: true })
    expect((await close).code).toBe(1003)
    await expectServing()
  })
})
