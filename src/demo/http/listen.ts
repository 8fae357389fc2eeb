import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Demo servers bind loopback only. */
export const HOST = '127.0.0.1'

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>

/** A bound HTTP server. */
export interface Listening {
  server: Server
  port: number
  /** `http://127.0.0.1:<port>` */
  origin: string
  close(): Promise<void>
}

/** The port is taken; `occupant` names the demo service holding it, when it is one of ours. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly occupant: string | undefined,
  ) {
    super(
      occupant
        ? `port ${port} is already served by another demo process (${occupant})`
        : `port ${port} is in use by another program: pick another with --port or RAG_DEMO_PORT_BASE`,
    )
  }
}

/**
 * Serves `GET /healthz` with the service name (how a second demo process recognises the first),
 * then hands everything else to the handler; handler exceptions answer 500.
 */
export function withHealth(service: string, handler: Handler): Handler {
  return async (req, res) => {
    try {
      if (req.method === 'GET' && req.url === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ service, status: 'ok' }))
        return
      }
      await handler(req, res)
    } catch (error) {
      process.stderr.write(`[${service}] ${error instanceof Error ? error.stack : String(error)}\n`)
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end('internal error')
    }
  }
}

/** The service name of the demo process on a loopback port, if it is one. */
export async function occupantOf(port: number): Promise<string | undefined> {
  try {
    const response = await fetch(`http://${HOST}:${port}/healthz`, {
      signal: AbortSignal.timeout(1000),
    })
    const body = (await response.json()) as { service?: unknown }
    return typeof body.service === 'string' ? body.service : undefined
  } catch {
    return undefined
  }
}

/** Binds the handler on 127.0.0.1:port (0 = any free port). */
export async function listen(service: string, handler: Handler, port: number): Promise<Listening> {
  const server = createServer((req, res) => void withHealth(service, handler)(req, res))
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, HOST, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new PortInUseError(port, await occupantOf(port))
    }
    throw error
  }
  const bound = (server.address() as AddressInfo).port
  return {
    server,
    port: bound,
    origin: `http://${HOST}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
