import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { liveServerConfig, textOf, useTestScope } from '#test/support/pool/helpers'

const scope = useTestScope()

/**
 * A streamable HTTP server whose tool call answers on an event stream that it closes after a
 * priming event (an id and `retry: 300`, SEP-1699); the answer comes on the GET stream the
 * client opens to resume, which must carry `Last-Event-ID`.
 */
function startResumableServer(): Promise<{ url: string; resumes: string[]; server: Server }> {
  const resumes: string[] = []
  let pending: number | undefined
  const send = (res: ServerResponse, body: object): void => {
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' })
    res.end(JSON.stringify({ jsonrpc: '2.0', ...body }))
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      const last = req.headers['last-event-id']
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' })
      if (typeof last !== 'string' || pending === undefined) return
      resumes.push(last)
      const result = {
        jsonrpc: '2.0',
        id: pending,
        result: { content: [{ type: 'text', text: 'resumed' }] },
      }
      res.write(`id: e-2\ndata: ${JSON.stringify(result)}\n\n`)
      pending = undefined
      return
    }
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => {
      const message = JSON.parse(text) as { id?: number; method: string }
      if (message.id === undefined) return void res.writeHead(202).end()
      if (message.method === 'initialize') {
        return send(res, {
          id: message.id,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'resumable', version: '1' },
          },
        })
      }
      if (message.method === 'tools/list') {
        return send(res, {
          id: message.id,
          result: { tools: [{ name: 'slow', inputSchema: { type: 'object' } }] },
        })
      }
      if (message.method === 'tools/call') {
        pending = message.id
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' })
        res.end('id: e-1\nretry: 300\ndata: \n\n')
        return
      }
      send(res, { id: message.id, result: {} })
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
        resumes,
        server,
      }),
    ),
  )
}

describe('resumable response streams (SEP-1699)', () => {
  let server: Server | undefined
  afterEach(() => {
    server?.closeAllConnections()
    server?.close()
  })

  it('resumes a tool call whose stream closed after a priming event, with Last-Event-ID', async () => {
    const resumable = await startResumableServer()
    server = resumable.server
    const { pool } = scope.pool()
    await pool.apply([liveServerConfig({ id: 'resumable', transport: 'http', url: resumable.url })])
    const result = await pool.callTool('resumable', 'slow', {}, { operation: 'call' })
    expect(textOf(result)).toBe('resumed')
    expect(resumable.resumes).toEqual(['e-1'])
  })
})
