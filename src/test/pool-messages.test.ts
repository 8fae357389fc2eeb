import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { ErrorInfo } from '#shared/errors'
import { RAGBOX_KEYS } from '#demo/keys'
import { startDemo, type DemoProcess } from './support/demo/programs'
import { tempDir, writeFile } from './support/files/temp-files'
import { dispatch } from '#core/api/dispatch'
import { createHandlers } from '#core/api/handlers'
import { createCore, type Core } from '#core/core'
import type { ConnectionPool } from '#core/pool/pool'
import {
  freePort,
  rejection,
  liveServerConfig,
  stdioFixture,
  useTestScope,
  type TestPool,
} from './support/pool/helpers'
import { waitFor } from './support/process/wait-for'
import { startQuirkyServer } from './support/servers/quirky-http'

/**
 * Every error a person can meet from the pool, produced for real over real transports: each
 * message names the server, says what failed and what to do next.
 */

const scope = useTestScope()
const KEY = RAGBOX_KEYS.acme
const WRONG_KEY = `rbx_live_${'0'.repeat(64)}`

let ragbox: DemoProcess
beforeAll(async () => {
  ragbox = await startDemo(['ragbox', '--port', '0', '--rate-limit', '1000'])
})
afterAll(() => ragbox?.stop())

const http = (id: string, url: string, headers: Record<string, string> = {}) =>
  liveServerConfig({ id, transport: 'http', url, headers })

/** The last error of a server that failed to connect (down or waiting for a person). */
async function connectError(test: TestPool, id: string): Promise<ErrorInfo> {
  return waitFor(() => {
    const status = test.pool.status(id)
    return status.state === 'down' || status.state === 'action_required'
      ? status.lastError
      : undefined
  })
}

/** A loopback HTTP server that answers every request with one status and a text body. */
async function statusServer(status: number): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(status).end('go away'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  scope.defer(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
}

interface Case {
  name: string
  code: ErrorInfo['code']
  /** What failed, in the message. */
  what: RegExp
  /** The next step, in the message. */
  next: RegExp
  produce(test: TestPool, id: string): Promise<ErrorInfo>
}

const onConnect =
  (config: (id: string) => Promise<Parameters<ConnectionPool['apply']>[0][number]>) =>
  async (test: TestPool, id: string): Promise<ErrorInfo> => {
    await test.pool.apply([await config(id)])
    return connectError(test, id)
  }

const CASES: Case[] = [
  {
    name: 'a wrong URL (HTTP 404 without a JSON-RPC body)',
    code: 'config',
    what: /no MCP endpoint .*HTTP 404/,
    next: /"url" in rag-mcp\.json/,
    produce: onConnect(async (id) =>
      http(id, ragbox.url.replace('/api/mcp', '/mcp'), { 'X-API-Key': KEY }),
    ),
  },
  {
    name: 'a wrong key (HTTP 401)',
    code: 'unauthorized',
    what: /refused the credentials \(HTTP 401\)/,
    next: /Config → Secrets/,
    produce: onConnect(async (id) => http(id, ragbox.url, { 'X-API-Key': WRONG_KEY })),
  },
  {
    name: 'a refusal (HTTP 403)',
    code: 'unauthorized',
    what: /refused access \(HTTP 403\)/,
    next: /Config → Secrets.*rights/,
    produce: onConnect(async (id) => http(id, await statusServer(403))),
  },
  {
    name: 'a connection refused',
    code: 'unreachable',
    what: /cannot reach .*connection refused/,
    next: /is running.*"url" in rag-mcp\.json/,
    produce: onConnect(async (id) => http(id, `http://127.0.0.1:${await freePort()}/mcp`)),
  },
  {
    name: 'HTTPS to a plain HTTP port',
    code: 'unreachable',
    what: /TLS/,
    next: /http:\/\/.*"url" in rag-mcp\.json/,
    produce: onConnect(async (id) => http(id, ragbox.url.replace('http://', 'https://'))),
  },
  {
    name: 'a stdio command that does not exist',
    code: 'config',
    what: /cannot start .*command not found/,
    next: /"command" in rag-mcp\.json/,
    produce: onConnect(async (id) => ({
      ...stdioFixture(id, 'x.mjs'),
      command: '/nonexistent/server-binary',
    })),
  },
  {
    name: 'a stdio server that exits at once',
    code: 'unreachable',
    what: /exited with code 3/,
    next: /log.*"command"|"command".*log/,
    produce: onConnect(async (id) => ({
      ...stdioFixture(id, 'x.mjs'),
      args: ['-e', 'process.exit(3)'],
    })),
  },
  {
    name: 'a launched server that exits before it is ready',
    code: 'unreachable',
    what: /launched command exited \(code 3\) before it was ready/,
    next: /"launch" in rag-mcp\.json.*log/,
    produce: onConnect(async (id) =>
      liveServerConfig({
        id,
        transport: 'http',
        url: `http://127.0.0.1:${await freePort()}/mcp`,
        launch: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      }),
    ),
  },
  {
    name: 'a timeout',
    code: 'timeout',
    what: /did not answer call within 300 ms/,
    next: /"timeoutMs" in rag-mcp\.json/,
    async produce(test, id) {
      const server = await startQuirkyServer({ hangTools: ['hang'] })
      scope.defer(() => server.close())
      // Connecting has the safety net (a loaded machine may take seconds); the call has 300 ms.
      await test.pool.apply([http(id, server.url)])
      await test.pool.session(id)
      const call = test.pool.callTool(id, 'hang', {}, { operation: 'call', timeoutMs: 300 })
      return (await rejection(call)).toInfo()
    },
  },
  {
    name: 'a malformed reply',
    code: 'protocol',
    what: /unusable reply to call/,
    next: /report it to the server's owner/,
    async produce(test, id) {
      await test.pool.apply([stdioFixture(id, 'raw-stdio-server.mjs', ['--malformed-tool'])])
      return (await rejection(test.pool.callTool(id, 'broken', {}, { operation: 'call' }))).toInfo()
    },
  },
  {
    name: 'a method the server does not have (JSON-RPC -32601 with HTTP 404)',
    code: 'unsupported',
    what: /does not support .*no\/such-method.*-32601/,
    next: /dialect|update/,
    async produce(test, id) {
      await test.pool.apply([http(id, ragbox.url, { 'X-API-Key': KEY })])
      const session = await test.pool.session(id)
      return (
        await rejection(session.request('no/such-method', {}, { operation: 'inspect' }))
      ).toInfo()
    },
  },
  {
    name: 'a server id not in the pool',
    code: 'not_found',
    what: /not in the connection pool/,
    next: /check the id/,
    async produce(test, id) {
      return (await rejection(test.pool.session(id))).toInfo()
    },
  },
]

describe('pool error messages', () => {
  it.each(CASES)('names the server, what failed and the next step for $name', async (c) => {
    const test = scope.pool()
    const id = `srv-${c.code.replace('_', '-')}`
    const error = await c.produce(test, id)
    expect(error.code).toBe(c.code)
    expect(error.server).toBe(id)
    expect(error.message).toContain(`server ${id}`)
    expect(error.message).toMatch(c.what)
    expect(error.message).toMatch(c.next)
    expect(error.message).not.toContain(WRONG_KEY)
    expect(error.message).not.toContain(KEY)
  })
})

describe('a server in the registry but not in the pool', () => {
  async function start(): Promise<Core> {
    const { dir, cleanup } = tempDir('rc-pool-messages-')
    const file = writeFile(
      join(dir, 'rag-mcp.json'),
      JSON.stringify({
        docs: { url: 'http://127.0.0.1:9/mcp' },
        off: { url: 'http://127.0.0.1:9/mcp', enabled: false },
      }),
    )
    // Not connecting, as the CLI does until a command names its servers.
    const instance = await createCore({ dataDir: dir, configPath: file, env: {}, watch: false })
    scope.defer(async () => {
      await instance.dispose()
      cleanup()
    })
    return instance
  }
  const core = async (): Promise<ConnectionPool> => (await start()).pool

  it('says an enabled server is configured but not connected yet', async () => {
    const error = await rejection((await core()).session('docs'))
    expect(error.code).toBe('not_connected')
    expect(error.message).toMatch(/^server docs is in the registry but not connected: /)
    expect(error.message).not.toMatch(/not in the registry/)
  })

  it('says a disabled server is disabled', async () => {
    const error = await rejection((await core()).session('off'))
    expect(error.code).toBe('not_connected')
    expect(error.message).toMatch(/in the registry but not connected: it is disabled.*enable it/)
  })

  it('says an unknown id is not in the registry', async () => {
    const error = await rejection((await core()).session('ghost'))
    expect(error.code).toBe('not_found')
    expect(error.message).toMatch(/server ghost is not in the registry; check the id/)
  })

  it('says an unknown id for the workbench is unknown, and what to do', async () => {
    const handlers = createHandlers(await start())
    const response = await dispatch(handlers, 'workbench:copy', {
      server: 'ghost',
      tool: 'search',
      arguments: {},
    })
    expect(response).toMatchObject({ ok: false, error: { code: 'not_found', server: 'ghost' } })
    const { message } = (response as { error: ErrorInfo }).error
    expect(message).toMatch(/^server ghost is not in the registry.*; check the id/)
  })
})
