import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from '#test/support/demo/programs'
import { startQuirkyServer } from '#test/support/servers/quirky-http'
import {
  DEMO_KEY_ENV,
  auditLines,
  cliHome,
  demoRegistry,
  demoUrl,
  json,
  runCli,
  writeRegistry,
} from '#test/support/cli/run-cli'

/** `call`: one raw tool call to a registry server, an ad-hoc URL or an ad-hoc stdio command. */

const RAW_STDIO = fileURLToPath(
  new URL('../../../test/fixtures/pool/raw-stdio-server.mjs', import.meta.url),
)
const rawStdio = (...flags: string[]): string =>
  [process.execPath, RAW_STDIO, ...flags].map((word) => JSON.stringify(word)).join(' ')

let home: string

beforeAll(() => {
  home = cliHome()
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('call against a hand-written stdio server', () => {
  it('prints the tool result exactly as received (exit 0)', async () => {
    const run = await runCli(
      ['--json', 'call', '--stdio', rawStdio(), '--tool', 'echo', '--args', '{"text":"hi there"}'],
      home,
    )
    expect(run.code).toBe(0)
    expect(json(run)).toEqual({ content: [{ type: 'text', text: 'hi there' }] })
  })

  it('exits 1 with {code, message} when the server answers with a malformed result', async () => {
    const run = await runCli(
      ['--json', 'call', '--stdio', rawStdio('--malformed-tool'), '--tool', 'broken'],
      home,
    )
    expect(run.code).toBe(1)
    const { error } = json<{ error: Record<string, unknown> }>(run)
    expect(Object.keys(error).sort()).toEqual(['code', 'message'])
    expect(error.code).toBe('protocol')
  })

  it('exits 1 when a connected server does not answer within --timeout', async () => {
    // Starting the server may take long on a busy machine; only the call has 300 ms.
    const run = await runCli(
      [
        ...['--json', '--timeout', '300', 'call', '--connect-timeout', '60000'],
        ...['--stdio', rawStdio(), '--tool', 'hang'],
      ],
      home,
      { timeoutMs: 90_000 },
    )
    expect(run.code).toBe(1)
    expect(json(run)).toMatchObject({ error: { code: 'timeout' } })
  })

  it('exits 4 when the server does not finish connecting within --connect-timeout', async () => {
    const run = await runCli(
      [
        ...['--json', '--timeout', '60000', 'call', '--connect-timeout', '300'],
        ...['--stdio', rawStdio('--hang-initialize'), '--tool', 'echo'],
      ],
      home,
      { timeoutMs: 90_000 },
    )
    expect(run.code).toBe(4)
    expect(json(run)).toMatchObject({ error: { code: 'timeout' } })
  })

  it('exits 4, the code for a server that could not be reached, when the command does not exist', async () => {
    const run = await runCli(
      ['--json', 'call', '--stdio', 'rc-no-such-command-7f3a', '--tool', 'echo'],
      home,
    )
    expect(run.code).toBe(4)
    const { error } = json<{ error: { code: string; message: string } }>(run)
    expect(error.code).toBe('config')
    expect(error.message).toMatch(/command not found/)
  })

  it('exits 2 on a --url with a user name or password, without repeating the password', async () => {
    const run = await runCli(
      ['--json', 'call', '--url', 'http://svc:pass-on-cli-123@127.0.0.1:9/mcp', '--tool', 'x'],
      home,
    )
    expect(run.code).toBe(2)
    expect(json<{ error: { message: string } }>(run).error.message).toMatch(/user name or password/)
    expect(run.stdout + run.stderr).not.toContain('pass-on-cli-123')
  })

  it('exits 2 on an --args that is not a JSON object', async () => {
    const run = await runCli(
      ['--json', 'call', '--stdio', rawStdio(), '--tool', 'echo', '--args', '[1]'],
      home,
    )
    expect(run.code).toBe(2)
  })
})

describe('call against the demo servers', () => {
  let demo: DemoProcess
  beforeAll(async () => {
    demo = await startDemo(['all', '--port-base', '0'])
  })
  afterAll(() => demo?.stop())

  it('calls a registry server with its key and the acting user’s headers', async () => {
    const config = writeRegistry(home, demoRegistry(demo))
    const run = await runCli(
      [
        '--json',
        '--config',
        config,
        '--user',
        'bob@example.com',
        '--tags',
        '["department:engineering"]',
        'call',
        '--server',
        'knowledgeSearch',
        '--tool',
        'rag_search',
        '--args',
        '{"search_phrases":["vpn"]}',
      ],
      home,
      { env: DEMO_KEY_ENV },
    )
    expect(run.code).toBe(0)
    // rag-search's non-standard result, kept as the server sent it.
    const result = json<{ status: string; segments: unknown[] }>(run)
    expect(result.status).toBe('success')
    expect(result.segments.length).toBeGreaterThan(0)
  })

  it('leaves one audit line for a call to a registry server, and one for an ad-hoc URL', async () => {
    const config = writeRegistry(home, demoRegistry(demo))
    const before = auditLines(home).length
    const bob = ['--user', 'bob@example.com']
    const tool = ['--tool', 'rag_search', '--args', '{"search_phrases":["vpn"]}']
    const registry = await runCli(
      ['--json', '--config', config, ...bob, 'call', '--server', 'knowledgeSearch', ...tool],
      home,
      { env: DEMO_KEY_ENV },
    )
    expect(registry.code).toBe(0)
    const unreachable = await runCli(
      ['--json', ...bob, 'call', '--url', 'http://127.0.0.1:9/mcp', '--tool', 'echo'],
      home,
    )
    expect(unreachable.code).toBe(4)
    expect(auditLines(home).slice(before)).toEqual([
      expect.objectContaining({
        user: 'bob@example.com',
        server: 'knowledgeSearch',
        operation: 'workbench',
        tool: 'rag_search',
        outcome: 'ok',
      }),
      expect.objectContaining({
        server: 'command-line',
        operation: 'workbench',
        outcome: 'error',
        errorCode: 'unreachable',
      }),
    ])
  })

  it('calls an ad-hoc SSE URL', async () => {
    const run = await runCli(
      [
        '--json',
        'call',
        '--url',
        demoUrl(demo, 'rag-tools-v1'),
        '--transport',
        'sse',
        '--tool',
        'rag_discover_resources',
        '--args',
        '{"username":"bob@example.com"}',
      ],
      home,
    )
    expect(run.code).toBe(0)
    expect(JSON.stringify(json(run))).toContain('engineering')
  })

  it('exits 4 when the URL does not answer', async () => {
    const run = await runCli(
      ['--json', '--timeout', '2000', 'call', '--url', 'http://127.0.0.1:9/mcp', '--tool', 'x'],
      home,
    )
    expect(run.code).toBe(4)
    expect(json(run)).toMatchObject({ error: { code: 'unreachable' } })
  })
})

describe('call against a RAGbox server', () => {
  it('reports a -32000 as unauthorized, as its dialect reads it', async () => {
    const server = await startQuirkyServer({
      extraTools: ['search_documents'],
      rpcErrors: { search_documents: { code: -32000, message: 'Vault sealed for this caller' } },
    })
    try {
      const config = writeRegistry(home, { box: { url: server.url, dialect: 'ragbox' } })
      const run = await runCli(
        ['--json', '--config', config, 'call', '--server', 'box', '--tool', 'search_documents'],
        home,
      )
      expect(run.code).toBe(1)
      expect(json(run)).toMatchObject({ error: { code: 'unauthorized' } })
    } finally {
      await server.close()
    }
  })
})
