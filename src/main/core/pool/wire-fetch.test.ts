import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { wireFetch } from './wire-fetch'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))))
})

/** A loopback server answering with `handler`; its URL. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const post = (body = '{"jsonrpc":"2.0","id":1,"method":"ping"}') => ({
  method: 'POST',
  headers: new Headers({ 'content-type': 'application/json', 'x-user-id': 'bob' }),
  body,
})

describe('wireFetch', () => {
  it('sends the headers and body, and answers status, headers and JSON like fetch', async () => {
    const url = await serve((req, res) => {
      let text = ''
      req.on('data', (chunk: Buffer) => (text += chunk.toString()))
      req.on('end', () => {
        res.setHeader('set-cookie', ['a=1', 'b=2'])
        res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '7' })
        res.end(JSON.stringify({ user: req.headers['x-user-id'], body: JSON.parse(text) }))
      })
    })
    const response = await wireFetch()(`${url}/mcp`, post())
    expect(response.status).toBe(200)
    expect(response.headers.get('x-ratelimit-remaining')).toBe('7')
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(await response.json()).toEqual({
      user: 'bob',
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    })
  })

  it('answers a read reply from its text: JSON, text, a clone, and a body that is not JSON', async () => {
    const url = await serve((req, res) => {
      res.writeHead(req.url === '/bad' ? 500 : 200, { 'content-type': 'application/json' })
      res.end(req.url === '/bad' ? 'oops {' : '{"jsonrpc":"2.0","id":1,"result":{"é":"€"}}')
    })
    const response = await wireFetch()(`${url}/mcp`, post())
    expect(await response.clone().json()).toEqual({ jsonrpc: '2.0', id: 1, result: { é: '€' } })
    expect(await response.text()).toBe('{"jsonrpc":"2.0","id":1,"result":{"é":"€"}}')
    const bad = await wireFetch()(`${url}/bad`, post())
    expect(bad.status).toBe(500)
    expect(await bad.clone().text()).toBe('oops {')
    await expect(bad.json()).rejects.toThrow(SyntaxError)
    // Wrappable like a Response's own methods (the pool's reply repair redefines json).
    Object.defineProperty(response, 'json', { value: async () => 'wrapped' })
    expect(await response.json()).toBe('wrapped')
  })

  it('follows a redirected POST through the fallback fetch', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/mcp') res.writeHead(307, { location: '/moved' }).end()
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"at":"moved"}')
    })
    const response = await wireFetch()(`${url}/mcp`, post())
    expect(await response.json()).toEqual({ at: 'moved' })
  })

  it('answers 202 and 204 without a body', async () => {
    const url = await serve((req, res) => res.writeHead(req.url === '/a' ? 202 : 204).end())
    expect(await (await wireFetch()(`${url}/a`, post())).text()).toBe('')
    expect((await wireFetch()(`${url}/b`, post())).body).toBeNull()
  })

  it('fails like fetch when nothing listens: TypeError "fetch failed" with the socket error', async () => {
    const url = await serve(() => {})
    await new Promise((closed) => servers.pop()!.close(closed))
    const error = await wireFetch()(`${url}/mcp`, post()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } })
  })

  it("rejects with the abort's reason when the caller aborts", async () => {
    const url = await serve(() => {}) // never answers
    const controller = new AbortController()
    const reply = wireFetch()(`${url}/mcp`, { ...post(), signal: controller.signal })
    const reason = new Error('call cancelled')
    controller.abort(reason)
    await expect(reply).rejects.toBe(reason)
  })

  it('hands other GETs and form bodies to the fallback', async () => {
    const seen: string[] = []
    const fallback = (url: string | URL, init?: RequestInit) => {
      seen.push(`${init?.method ?? 'GET'} ${String(url)}`)
      return Promise.resolve(new Response('{}'))
    }
    const form = { method: 'POST', body: new URLSearchParams({ grant_type: 'x' }) }
    await wireFetch(fallback)('http://127.0.0.1:9/.well-known/x', { method: 'GET' })
    await wireFetch(fallback)('http://127.0.0.1:9/token', form)
    expect(seen).toEqual(['GET http://127.0.0.1:9/.well-known/x', 'POST http://127.0.0.1:9/token'])
  })

  it('opens an event-stream GET itself and streams its events as they come', async () => {
    let lastEventId: string | undefined
    const url = await serve((req, res) => {
      lastEventId = req.headers['last-event-id'] as string | undefined
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('id: 1\ndata: first\n\n')
    })
    const fallback = () => Promise.reject(new Error('the fallback must not be used'))
    const response = await wireFetch(fallback)(url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'last-event-id': 'event-7' },
    })
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const reader = response.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('id: 1\ndata: first\n\n')
    expect(lastEventId).toBe('event-7')
    await reader.cancel()
  })
})
