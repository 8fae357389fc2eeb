import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ConsoleError } from '#shared/errors'

/** The documented default port of `/metrics` (0 picks a free one). */
export const DEFAULT_METRICS_PORT = 9470

/** Whether the process is ready to be relied on (`/readyz`), and if not why. */
export interface Readiness {
  ready: boolean
  /** What it waits for, or why it will not be ready. */
  reason?: string
}

/** Where the metrics are served. */
export interface MetricsEndpoint {
  port: number
  url: string
  close(): Promise<void>
}

const PATHS = ['/metrics', '/healthz', '/readyz']

/**
 * Serves on `host` (127.0.0.1, loopback only, unless told otherwise): `GET /metrics` (Prometheus text exposition), `/healthz` (200 while
 * the process answers at all) and `/readyz` (200 once `readiness` says so, else 503 with the
 * reason); every other path is a 404 and other methods a 405. A failing collection answers 500
 * and the server lives on.
 */
export async function serveMetrics(
  exposition: () => Promise<{ text: string; contentType: string }>,
  port: number,
  readiness: () => Readiness = () => ({ ready: true }),
  host = '127.0.0.1',
): Promise<MetricsEndpoint> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/'
    if (!PATHS.includes(path)) {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`not found: try ${PATHS.join(', ')}\n`)
      return
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end()
      return
    }
    const plain = (status: number, text: string): void => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' })
      response.end(request.method === 'HEAD' ? undefined : text)
    }
    if (path === '/healthz') return plain(200, 'ok\n')
    if (path === '/readyz') {
      const state = readiness()
      return state.ready ? plain(200, 'ready\n') : plain(503, `not ready: ${state.reason}\n`)
    }
    exposition().then(
      ({ text, contentType }) => {
        response.writeHead(200, { 'content-type': contentType })
        response.end(request.method === 'HEAD' ? undefined : text)
      },
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('collection failed\n'),
    )
  })
  const bracketed = host.includes(':') ? `[${host}]` : host
  const where = `${bracketed}:${port}`
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new ConsoleError({
          code: 'invalid_argument',
          origin: 'local',
          message:
            error.code === 'EADDRINUSE'
              ? `metrics port ${port} on ${host} is in use: choose another (--metrics-port N, 0 for any free port)`
              : `cannot serve metrics on ${where}: ${error.message}`,
        }),
      ),
    )
    server.listen(port, host, () => resolve())
  })
  const actual = (server.address() as AddressInfo).port
  return {
    port: actual,
    url: `http://${bracketed}:${actual}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
