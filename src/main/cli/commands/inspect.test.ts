import { createRequire } from 'node:module'
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RAG_SEARCH_API_KEY, RAGBOX_KEYS } from '#demo/keys'
import { startDemo, type DemoProcess } from '#test/support/demo/programs'
import { cliHome, json, runCli } from '#test/support/cli/run-cli'

/** `tools`, `resources`, `prompts` and `call --log` of the built CLI against real servers. */

const everything = join(
  dirname(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'),
  ),
  'dist/index.js',
)
const PAGED = fileURLToPath(
  new URL('../../../test/fixtures/pool/paged-stdio-server.mjs', import.meta.url),
)
const stdio = (...words: string[]): string => words.map((w) => JSON.stringify(w)).join(' ')
const EVERYTHING = ['--stdio', stdio(process.execPath, everything, 'stdio')]

let home: string
let demo: DemoProcess
let ragSearch: DemoProcess

beforeAll(async () => {
  home = cliHome()
  demo = await startDemo(['ragbox', '--port', '0'])
  ragSearch = await startDemo(['rag-search', '--port', '0', '--api-key', RAG_SEARCH_API_KEY])
})
afterAll(async () => {
  await Promise.all([demo?.stop(), ragSearch?.stop()])
  rmSync(home, { recursive: true, force: true })
})

describe('tools', () => {
  it('lists every tool with its input schema (--json)', async () => {
    const run = await runCli(['--json', 'tools', ...EVERYTHING], home)
    expect(run.code).toBe(0)
    const doc = json<{ server: string; tools: Record<string, unknown>[] }>(run)
    expect(Object.keys(doc).sort()).toEqual(['server', 'tools'])
    const sum = doc.tools.find((t) => t.name === 'get-sum')!
    expect(Object.keys(sum).sort()).toEqual(['description', 'inputSchema', 'name'])
    expect(sum.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] })
  })

  it('reaches a URL server with a --header key that never shows in the output', async () => {
    const run = await runCli(
      ['tools', '--url', demo.url, '--header', `X-API-Key: ${RAGBOX_KEYS.acme}`],
      home,
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^search_documents\s+query\*/m)
    expect(run.stdout + run.stderr).not.toContain(RAGBOX_KEYS.acme)
  })
})

describe('resources and prompts', () => {
  it('lists every page of resources and the templates (--json)', async () => {
    const run = await runCli(
      ['--json', 'resources', '--stdio', stdio(process.execPath, PAGED)],
      home,
    )
    expect(run.code).toBe(0)
    const doc = json<{ resources: { uri: string }[]; resourceTemplates: unknown[] }>(run)
    expect(doc.resources.map((r) => r.uri)).toEqual([1, 2, 3, 4, 5].map((n) => `paged://doc/${n}`))
    expect(doc.resourceTemplates).toHaveLength(1)
  })

  it('lists prompts with their arguments', async () => {
    const run = await runCli(['prompts', ...EVERYTHING], home)
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^args-prompt\s+city\*, state\s/m)
  })

  it('says a server that declares no resources offers none (exit 0)', async () => {
    const target = ['--url', demo.url, '--header', `X-API-Key: ${RAGBOX_KEYS.acme}`]
    const run = await runCli(['--json', 'resources', ...target], home)
    expect(run.code).toBe(0)
    expect(json(run)).toEqual({
      server: expect.any(String),
      offered: false,
      resources: [],
      resourceTemplates: [],
    })
    const text = await runCli(['resources', ...target], home)
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/offers no resources \(it declares no resources capability\)/)
    expect(text.stderr).not.toMatch(/does not support|dialect/)
  })

  it('says a server that declares no prompts offers none (exit 0)', async () => {
    const target = ['--url', demo.url, '--header', `X-API-Key: ${RAGBOX_KEYS.acme}`]
    const run = await runCli(['prompts', ...target], home)
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/offers no prompts \(it declares no prompts capability\)/)
    expect(run.stderr).toBe('')
  })
})

describe('call --log', () => {
  it('prints the JSON-RPC traffic on stderr, keys redacted, identity shown', async () => {
    // A header the redactor does not know by name: only registering typed headers hides it.
    const token = 'q7Vx2Lk9Pz4Rt8Wm3Nc6Hb1Jd5Fg0Ys'
    const run = await runCli(
      [
        '--user',
        'bob@example.com',
        'call',
        '--url',
        demo.url,
        '--header',
        `X-API-Key: ${RAGBOX_KEYS.acme}`,
        '--header',
        `X-Upstream-Token: ${token}`,
        '--tool',
        'search_documents',
        '--args',
        '{"query":"discount"}',
        '--log',
      ],
      home,
    )
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(
      /→ request tools\/call #\d+ \(\d+ B\) HTTP 200 X-API-Key=\[redacted\] X-Upstream-Token=\[redacted\]$/m,
    )
    // RAGbox's family defines no identity headers: the acting user is not sent to it.
    expect(run.stderr).not.toContain('x-user-id')
    expect(run.stderr).toMatch(/← response #\d+ \(\d+ B\) \d+ ms/)
    expect(run.stdout + run.stderr).not.toContain(RAGBOX_KEYS.acme)
    expect(run.stdout + run.stderr).not.toContain(token)
  })

  it('keeps the scheme of a redacted Authorization, and shows the identity rag-search gets', async () => {
    const run = await runCli(
      [
        '--user',
        'bob@example.com',
        'call',
        '--url',
        ragSearch.url,
        '--header',
        `Authorization: Bearer ${RAG_SEARCH_API_KEY}`,
        '--tool',
        'rag_search',
        '--args',
        '{"search_phrases":["vpn"]}',
        '--log',
      ],
      home,
    )
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(
      /→ request tools\/call #\d+ \(\d+ B\) HTTP 200 Authorization=Bearer \[redacted\] x-user-id=bob@example\.com x-session-tags=/,
    )
    expect(run.stdout + run.stderr).not.toContain(RAG_SEARCH_API_KEY)
  })

  it('prints one JSON entry per line with --json, stderr lines of stdio servers included', async () => {
    const run = await runCli(
      ['--json', 'call', ...EVERYTHING, '--tool', 'echo', '--args', '{"message":"hi"}', '--log'],
      home,
    )
    expect(run.code).toBe(0)
    const entries = run.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries).toContainEqual(expect.objectContaining({ direction: 'stderr' }))
    expect(entries).toContainEqual(
      expect.objectContaining({ direction: 'out', method: 'tools/call' }),
    )
  })
})
