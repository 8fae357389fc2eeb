import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A streamable-HTTP MCP server on loopback whose one search tool (`rag_search`, rag-search's
 * shape) fails the way its URL path says, for tests that provoke each error the console
 * reports with a real fault on a real transport:
 *
 * - `/ok`: answers with one segment;
 * - `/hang`: never answers `tools/call` (the console's timeout or a cancel has to end it);
 * - `/status/<n>`: answers `tools/call` with HTTP `<n>` (429 with `Retry-After: 7`);
 * - `/garbage`: answers `tools/call` with HTTP 200 and a body that is not JSON-RPC;
 * - `/is-error`: answers `tools/call` with a result carrying `isError: true`;
 * - `/no-tools`: lists its tool but does not implement `tools/call` (-32601).
 *
 * Everything else (initialize, tools/list, ping) is answered as a well-behaved server would.
 * Methods it does not know get -32601.
 */
export interface FaultServer {
  /** `http://127.0.0.1:<port>` */
  origin: string
  close(): Promise<void>
}

interface Message {
  id?: unknown
  method: string
  params?: { protocolVersion?: string; name?: string }
}

const TOOLS = [
  {
    name: 'rag_search',
    description: 'Search documents',
    inputSchema: {
      type: 'object',
      properties: { search_phrases: { type: 'array', items: { type: 'string' } } },
      required: ['search_phrases'],
    },
  },
]

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

function answer(path: string, message: Message, response: ServerResponse): void {
  const reply = (body: object): void =>
    json(response, 200, { jsonrpc: '2.0', id: message.id, ...body })
  switch (message.method) {
    case 'initialize':
      return reply({
        result: {
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: `fault${path}`, version: '1.0.0' },
        },
      })
    case 'tools/list':
      return reply({ result: { tools: TOOLS } })
    case 'ping':
      return reply({ result: {} })
    case 'tools/call':
      return callTool(path, reply, response)
    default:
      if (message.id === undefined) return void response.writeHead(202).end()
      return reply({ error: { code: -32601, message: `Method not found: ${message.method}` } })
  }
}

function callTool(path: string, reply: (body: object) => void, response: ServerResponse): void {
  const status = /^\/status\/(\d{3})$/.exec(path)
  if (status) {
    const code = Number(status[1])
    const headers: Record<string, string> = { 'content-type': 'text/plain' }
    if (code === 429) headers['retry-after'] = '7'
    response.writeHead(code, headers).end(`fault server: HTTP ${code} on purpose`)
    return
  }
  switch (path) {
    case '/hang':
      return
    case '/garbage':
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"this is": not json')
      return
    case '/is-error':
      return reply({
        result: { content: [{ type: 'text', text: 'the index is being rebuilt' }], isError: true },
      })
    case '/no-tools':
      return reply({ error: { code: -32601, message: 'Method not found: tools/call' } })
    default:
      // rag-search's shape: the result is `{status, segments}` itself.
      return reply({
        result: {
          status: 'success',
          segments: [
            {
              segment_uid: 'doc-1#0',
              source_file_name: 'a.md',
              source_file_type: 'md',
              raw_text: 'its text',
            },
          ],
        },
      })
  }
}

/** Starts the server on a free loopback port. */
export async function startFaultServer(): Promise<FaultServer> {
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname.replace(/\/mcp$/, '')
    if (request.method === 'GET') return void response.writeHead(405).end()
    if (request.method === 'DELETE') return void response.writeHead(200).end()
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      try {
        answer(path, JSON.parse(body) as Message, response)
      } catch {
        json(response, 400, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'parse error' },
        })
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
