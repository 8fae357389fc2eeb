import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import { liveServerConfig, textOf, useTestScope } from '#test/support/pool/helpers'
import { waitFor } from '#test/support/process/wait-for'
import { startHttpFixture, type HttpFixture } from '../../../test/fixtures/pool/mcp-fixture.mjs'

const scope = useTestScope()
const testPool = scope.pool

async function fixture(port?: number): Promise<HttpFixture> {
  const server = await startHttpFixture({ transport: 'sse', ...(port ? { port } : {}) })
  scope.defer(() => server.close())
  return server
}

const sse = (id: string, url: string, extra: object = {}) =>
  liveServerConfig({ id, transport: 'sse', url, ...extra })

describe('pool over legacy SSE', () => {
  it('connects, lists the tools and calls one', async () => {
    const server = await fixture()
    const { pool } = testPool()
    await pool.apply([sse('legacy', server.url)])
    const session = await pool.session('legacy')
    expect(session.tools.map((t) => t.name)).toContain('echo')
    const result = await session.callTool('echo', { text: 'over sse' }, { operation: 'call' })
    expect(textOf(result)).toBe('over sse')
  })

  it('sends each concurrent call the headers of its own user', async () => {
    const server = await fixture()
    const { pool } = testPool({}, { KEY: 'sse-key' })
    await pool.apply([
      sse('legacy', server.url, { headers: { 'X-API-Key': '${env:KEY}' }, identityHeaders: true }),
    ])
    await pool.session('legacy')
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        pool.callTool(
          'legacy',
          'whoami',
          {},
          {
            operation: 'search',
            user: { userId: `u${n}`, sessionTags: [`t${n}`], groups: [] },
          },
        ),
      ),
    )
    results.forEach((result, n) => {
      expect(JSON.parse(textOf(result))).toMatchObject({
        userId: `u${n}`,
        sessionTags: JSON.stringify([`t${n}`]),
        apiKey: 'sse-key',
      })
    })
  })

  it('classifies a JSON-RPC -32601 sent on the stream as unsupported, from the server', async () => {
    const server = await fixture()
    const { pool } = testPool()
    await pool.apply([sse('legacy', server.url)])
    const error = await pool
      .request('legacy', 'resources/list', undefined, { operation: 'discover' })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'unsupported',
      origin: 'server',
      message: expect.stringMatching(/^server legacy does not support resources\/list: /),
      details: { code: -32601 },
    })
  })

  it('reconnects with a new session after the server restarts', async () => {
    const first = await startHttpFixture({ transport: 'sse' })
    const { pool, waitForState } = testPool()
    await pool.apply([sse('legacy', first.url)])
    await pool.session('legacy')
    await first.close()
    const down = await waitForState('legacy', 'down')
    expect(down).toMatchObject({ lastError: { code: 'unreachable' } })
    const error = await pool
      .callTool('legacy', 'echo', { text: 'x' }, { operation: 'call' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConsoleError)

    const second = await fixture(first.port)
    await waitFor(() => second.requests.some((r) => r.rpcMethod === 'initialize'))
    await waitForState('legacy', 'ready')
    const result = await pool.callTool('legacy', 'echo', { text: 'again' }, { operation: 'call' })
    expect(textOf(result)).toBe('again')
  })
})
