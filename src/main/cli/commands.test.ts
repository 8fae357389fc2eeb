import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from '#test/support/demo/programs'
import {
  DEMO_KEY_ENV,
  auditLines as auditLinesOf,
  cliHome,
  demoRegistry,
  json,
  runCli,
  writeRegistry,
  type CliRun,
} from '#test/support/cli/run-cli'

/**
 * The built `rag-console` against every demo family over its real transport: each command's
 * `--json` document has exactly the documented keys, and the exit code says how it went.
 */

const BOB = ['--user', 'bob@example.com', '--tags', '["department:engineering"]']
const sorted = (value: object): string[] => Object.keys(value).sort()
const auditLines = (): Record<string, unknown>[] => auditLinesOf(home)

let demo: DemoProcess
let home: string
let config: string

const cli = (args: string[]): Promise<CliRun> =>
  runCli(['--config', config, ...args], home, { env: DEMO_KEY_ENV })

beforeAll(async () => {
  demo = await startDemo(['all', '--port-base', '0'])
  home = cliHome()
  config = writeRegistry(home, demoRegistry(demo))
})

afterAll(async () => {
  await demo?.stop()
  if (home) rmSync(home, { recursive: true, force: true })
})

describe('servers', () => {
  it('connects to every server and reports each with the documented keys (exit 0)', async () => {
    const run = await cli(['--json', 'servers'])
    expect(run.code).toBe(0)
    const { servers } = json<{ servers: Record<string, unknown>[] }>(run)
    expect(sorted(json(run))).toEqual(['servers'])
    for (const server of servers) {
      expect(sorted(server)).toEqual(
        [
          'dialect',
          'enabled',
          'error',
          'id',
          'latencyMs',
          'searchable',
          'status',
          'tools',
          'transport',
        ].sort(),
      )
      // Every demo server is of a known family: nothing to suggest.
      expect(server.searchable).toEqual([])
      expect(server).toMatchObject({ status: 'ready', enabled: true, error: null })
      expect(server.latencyMs).toEqual(expect.any(Number))
    }
    expect(Object.fromEntries(servers.map((s) => [s.id, [s.transport, s.dialect]]))).toEqual({
      knowledgeSearch: ['http', 'rag-search'],
      companyDocs: ['stdio', 'rag-tools-v1'],
      engineeringWiki: ['sse', 'rag-tools-v1'],
      documentVault: ['http', 'ragbox'],
      productCatalog: ['http', 'vtex'],
    })
    expect(servers.find((s) => s.id === 'knowledgeSearch')!.tools).toContain('rag_search')
  })

  it('prints a readable table without --json', async () => {
    const run = await cli(['servers'])
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')[0]).toMatch(
      /^SERVER\s+STATUS\s+TRANSPORT\s+DIALECT\s+TOOLS\s+LATENCY$/,
    )
    expect(run.stdout).toMatch(/^companyDocs\s+ready\s+stdio\s+rag-tools-v1\s+3\s+\d+ ms$/m)
  })
})

describe('discover', () => {
  it('lists the acting user’s sources per server with the documented keys', async () => {
    const run = await cli([
      '--json',
      '--user',
      'alice@example.com',
      'discover',
      '--server',
      'companyDocs',
      '--server',
      'knowledgeSearch',
    ])
    expect(run.code).toBe(0)
    const result = json<{ servers: { server: string; sources: Record<string, unknown>[] }[] }>(run)
    expect(sorted(result)).toEqual(['servers'])
    for (const server of result.servers) {
      expect(sorted(server)).toEqual(['error', 'latencyMs', 'ok', 'server', 'sources'])
      for (const source of server.sources) {
        expect(sorted(source)).toEqual(['authRequired', 'groups', 'id', 'name', 'selected'])
      }
    }
    const companyDocs = result.servers.find((s) => s.server === 'companyDocs')!
    expect(companyDocs.sources.map((s) => s.id)).toEqual(['handbook', 'sales'])
  })
})

describe('search', () => {
  it('merges hits across servers as the acting user, with the documented keys', async () => {
    // The wiki's default search also asks its archived source, whose backend is offline.
    const run = await cli([
      '--json',
      ...BOB,
      'search',
      'vpn setup',
      '--phrase',
      'remote access',
      '--server',
      'knowledgeSearch',
      '--source',
      'engineeringWiki:it-kb',
      '--source',
      'engineeringWiki:engineering',
      '--top-k',
      '5',
    ])
    expect(run.code).toBe(0)
    const result = json<{
      user: { userId: string; sessionTags: string[] }
      servers: Record<string, unknown>[]
      hits: Record<string, unknown>[]
      phrases: string[]
    }>(run)
    expect(sorted(result)).toEqual(['elapsedMs', 'hits', 'phrases', 'query', 'servers', 'user'])
    expect(result.phrases).toEqual(['vpn setup', 'remote access'])
    expect(result.user).toMatchObject({
      userId: 'bob@example.com',
      sessionTags: ['department:engineering'],
    })
    for (const server of result.servers) {
      expect(sorted(server)).toEqual(
        ['count', 'error', 'latencyMs', 'ok', 'server', 'sourceErrors', 'violations'].sort(),
      )
      expect(server).toMatchObject({ ok: true, error: null, sourceErrors: [] })
    }
    expect(result.hits.length).toBeGreaterThan(0)
    expect(result.hits.length).toBeLessThanOrEqual(5)
    for (const hit of result.hits) {
      expect(sorted(hit)).toEqual(
        [
          'fileName',
          'fileType',
          'flags',
          'foundIn',
          'id',
          'rank',
          'score',
          'server',
          'snippet',
          'sourceId',
          'text',
          'title',
          'uri',
        ].sort(),
      )
    }
    expect(result.hits.map((h) => h.rank)).toEqual(result.hits.map((_h, i) => i + 1))
    // Progress went to stderr, never into the JSON on stdout.
    expect(run.stderr).toMatch(/knowledgeSearch: \d+ hit\(s\)/)
  })

  it('names every copy of a merged hit in foundIn, and which were flagged suspicious', async () => {
    const run = await cli([
      ...['--json', ...BOB, 'search', 'printer', '--phrase', 'vendor notes', '--phrase', 'toner'],
      ...['--server', 'knowledgeSearch', '--server', 'companyDocs'],
    ])
    expect(run.code).toBe(0)
    type Place = { server: string; sourceId: string | null; hitId: string; suspicious: boolean }
    const [first] = json<{ hits: { uri: string; flags: string[]; foundIn: Place[] }[] }>(run).hits
    expect(first!.uri).toContain('it-printer-vendor-notes')
    expect(first!.flags).toContain('suspicious')
    for (const place of first!.foundIn) {
      expect(sorted(place)).toEqual(['hitId', 'rank', 'score', 'server', 'sourceId', 'suspicious'])
    }
    const flagged = first!.foundIn.filter((place) => place.suspicious)
    expect(flagged.map((place) => place.hitId)).toContain('it-printer-vendor-notes#1')
    expect(flagged.length).toBeLessThan(first!.foundIn.length)
  })

  it('exits 1 when a server refuses the acting user, keeping the others’ hits', async () => {
    const run = await cli([
      '--json',
      '--user',
      'nobody@example.com',
      'search',
      'vpn',
      '--server',
      'companyDocs',
      '--server',
      'productCatalog',
      '--source',
      'productCatalog:tag/vpn',
    ])
    expect(run.code).toBe(1)
    const result = json<{ servers: { server: string; ok: boolean; error: unknown }[] }>(run)
    const companyDocs = result.servers.find((s) => s.server === 'companyDocs')!
    expect(companyDocs).toMatchObject({ ok: false, error: { code: 'unauthorized' } })
    expect(sorted(companyDocs.error as object)).toEqual(['code', 'message'])
    expect(result.servers.find((s) => s.server === 'productCatalog')).toMatchObject({ ok: true })
  })

  it('leaves one audit line per server called in the audit log once it has exited', async () => {
    const before = auditLines().length
    const run = await cli(['--json', ...BOB, 'search', 'vpn', '--server', 'knowledgeSearch'])
    expect(run.code).toBe(0)
    const added = auditLines().slice(before)
    expect(added).toHaveLength(1)
    expect(added[0]).toMatchObject({
      server: 'knowledgeSearch',
      operation: 'search',
      outcome: 'ok',
    })
  })

  it('puts a per-source refusal in that server’s entry and exits 1', async () => {
    // rag-tools-v1 answers with alice's handbook hits next to `unauthorized_source` for legal.
    const run = await cli([
      '--json',
      '--user',
      'alice@example.com',
      'search',
      'liability cap and paid time off',
      '--source',
      'companyDocs:handbook',
      '--source',
      'companyDocs:legal',
    ])
    const result = json<{ servers: Record<string, unknown>[]; hits: { sourceId: string }[] }>(run)
    expect(run.code).toBe(1)
    expect(result.servers).toEqual([
      expect.objectContaining({
        server: 'companyDocs',
        ok: true,
        error: null,
        sourceErrors: [
          {
            sourceId: 'legal',
            error: {
              code: 'unauthorized',
              message: expect.stringContaining('unauthorized_source'),
            },
          },
        ],
      }),
    ])
    expect(result.hits.length).toBeGreaterThan(0)
    expect(result.hits.every((hit) => hit.sourceId === 'handbook')).toBe(true)
  })
})

describe('synthesize', () => {
  it('gives one answer per server with the documented keys', async () => {
    const run = await cli([
      '--json',
      ...BOB,
      'synthesize',
      'how do I set up the VPN',
      '--server',
      'knowledgeSearch',
      '--server',
      'engineeringWiki',
    ])
    expect(run.code).toBe(0)
    const result = json<{ answers: Record<string, unknown>[] }>(run)
    expect(sorted(result)).toEqual(['answers'])
    for (const answer of result.answers) {
      expect(sorted(answer)).toEqual(
        [
          'answer',
          'citations',
          'error',
          'flags',
          'latencyMs',
          'mode',
          'ok',
          'server',
          'silence',
        ].sort(),
      )
      expect(answer.ok).toBe(true)
      expect(answer.flags).toEqual([])
    }
    const modes = Object.fromEntries(result.answers.map((a) => [a.server, a.mode]))
    expect(modes).toEqual({ knowledgeSearch: 'client', engineeringWiki: 'server' })
  })

  it('flags an answer that reads like instructions to a model as suspicious', async () => {
    const run = await cli([
      '--json',
      ...BOB,
      'synthesize',
      'printer driver update',
      '--server',
      'engineeringWiki',
    ])
    const [answer] = json<{ answers: { answer: string; flags: string[] }[] }>(run).answers
    expect(answer?.answer).toMatch(/ignore previous instructions/i)
    expect(answer?.flags).toEqual(['suspicious'])
  })
})

describe('verify', () => {
  it('checks a segment for the acting user with the documented keys (exit 0)', async () => {
    const found = json<{ hits: { id: string }[] }>(
      await cli(['--json', ...BOB, 'search', 'vpn', '--server', 'knowledgeSearch']),
    )
    const segment = found.hits[0]!.id
    const run = await cli([
      '--json',
      ...BOB,
      'verify',
      '--server',
      'knowledgeSearch',
      '--segment',
      segment,
    ])
    expect(run.code).toBe(0)
    const result = json<{ access: Record<string, unknown>; link: Record<string, unknown> }>(run)
    expect(sorted(result)).toEqual(
      [
        'access',
        'conflict',
        'explanation',
        'freshLink',
        'link',
        'segment',
        'server',
        'url',
        'user',
        'verdict',
      ].sort(),
    )
    expect(sorted(result.access)).toEqual(
      ['accessLevel', 'checked', 'error', 'hasAccess', 'refreshedUrl'].sort(),
    )
    expect(sorted(result.link)).toEqual(
      ['classification', 'latencyMs', 'ok', 'redirects', 'status', 'url'].sort(),
    )
    expect(result).toMatchObject({
      segment,
      verdict: 'ok',
      conflict: false,
      freshLink: null,
      access: { checked: true, hasAccess: true },
      link: { ok: true, classification: 'ok', status: 200 },
    })
  })

  it('exits 1 when the check fails (a deleted document)', async () => {
    const run = await cli([
      '--json',
      ...BOB,
      'verify',
      '--server',
      'knowledgeSearch',
      '--segment',
      'it-backups-faq#0',
    ])
    expect(run.code).toBe(1)
    expect(json(run)).toMatchObject({ access: { checked: true, hasAccess: false } })
  })
})

describe('verify verdicts', () => {
  const CAROL = ['--user', 'carol@example.com', '--tags', '["department:legal","role:admin"]']

  it('judges the link the user clicked: expired, with the fresh one the server can issue', async () => {
    const found = json<{ hits: { id: string; uri?: string }[] }>(
      await cli([
        '--json',
        ...CAROL,
        'search',
        'master services agreement clauses',
        '--server',
        'knowledgeSearch',
      ]),
    )
    const hit = found.hits.find((h) => h.uri?.includes('lg-msa-clauses'))!
    const args = [...CAROL, 'verify', '--server', 'knowledgeSearch', '--segment', hit.id]
    const run = await cli(['--json', ...args, '--url', hit.uri!])
    expect(run.code).toBe(1)
    const result = json<Record<string, unknown>>(run)
    expect(result).toMatchObject({
      verdict: 'expired',
      url: hit.uri,
      link: { url: hit.uri, status: 403, classification: 'expired' },
      freshLink: { status: 200, classification: 'ok' },
    })
    expect(result.explanation).toMatch(
      /^this link expired \d+ days ago \(HTTP 403, [^)]*\); the server can issue a fresh one/,
    )
    const text = await cli([...args, '--url', hit.uri!])
    expect(text.stdout).toMatch(/^verdict: expired \(as carol@example\.com\)$/m)
    expect(text.stdout).toMatch(/^fresh link: http:\/\/\S+ -> 200 ok/m)
  })

  it('refuses an empty --url or --segment as a usage error (exit 2), not a verdict', async () => {
    for (const empty of [
      ['--url', ''],
      ['--segment', '', '--url', 'http://x/doc'],
    ]) {
      const run = await cli(['--json', 'verify', '--server', 'knowledgeSearch', ...empty])
      expect(run.code, empty.join(' ')).toBe(2)
      expect(json(run)).toEqual({
        error: { code: 'invalid_argument', message: expect.stringMatching(/is empty/) },
      })
    }
  })

  it('headlines a link signed for Carol that opens for Alice, whom the server denies, as a leak (exit 1)', async () => {
    const found = json<{ hits: { id: string; uri?: string }[] }>(
      await cli([
        '--json',
        ...CAROL,
        'search',
        'master services agreement clauses',
        '--server',
        'knowledgeSearch',
      ]),
    )
    // A link signed for Carol that has not expired (any but the stale lg-msa-clauses).
    const hit = found.hits.find(
      (h) => h.uri?.includes('sig=') && !h.uri.includes('lg-msa-clauses'),
    )!
    const ALICE = ['--user', 'alice@example.com', '--tags', '["department:sales"]']
    const args = [...ALICE, 'verify', '--server', 'knowledgeSearch', '--segment', hit.id]
    const run = await cli(['--json', ...args, '--url', hit.uri!])
    expect(run.code).toBe(1)
    expect(json(run)).toMatchObject({
      verdict: 'leak',
      conflict: true,
      access: { checked: true, hasAccess: false },
      link: { status: 200, classification: 'ok' },
      explanation: expect.stringMatching(
        /^the link opens for anyone who holds it \(HTTP 200, [^)]*\), but the server denies alice@example\.com/,
      ),
    })
    const text = await cli([...args, '--url', hit.uri!])
    expect(text.stdout).toMatch(/^verdict: leak \(as alice@example\.com\)$/m)
  })

  it('tells a link that is not a web link from a citation with no link', async () => {
    const unc = await cli([
      '--json',
      'verify',
      '--server',
      'knowledgeSearch',
      '--url',
      '\\\\fileserver\\legal\\retention.pdf',
    ])
    expect(json(unc)).toMatchObject({ verdict: 'invalid_url' })
    const none = await cli([
      '--json',
      ...BOB,
      'verify',
      '--server',
      'knowledgeSearch',
      '--segment',
      'it-scan-0042#0',
    ])
    expect(json(none)).toMatchObject({ verdict: 'no_link', url: null, link: null })
    expect(none.code).toBe(1)
  })
})

describe('exit codes', () => {
  it('exits 2 with an invalid_argument error on a bad command line', async () => {
    const runs: Promise<{ args: string[]; run: CliRun }>[] = []
    for (const args of [
      ['frobnicate'],
      ['search'],
      ['servers', '--tool', 'x'],
      ['--tags', 'not-json', 'servers'],
      ['verify', '--server', 'knowledgeSearch'],
      ['secrets', 'set', 'knowledgeSearch'],
      ['secrets', 'set', 'knowledgeSearch', 'apiKey', '--name', 'apiKey'],
      ['secrets', 'delete', 'knowledgeSearch', 'apiKey', 'extra'],
    ]) {
      runs.push(cli(['--json', ...args]).then((run) => ({ args, run })))
    }
    // Independent runs: side by side.
    for (const { args, run } of await Promise.all(runs)) {
      expect(run.code, args.join(' ')).toBe(2)
      expect(json(run)).toEqual({
        error: { code: 'invalid_argument', message: expect.any(String) },
      })
    }
  })

  it('exits 3 with located diagnostics when the registry is invalid', async () => {
    const broken = writeRegistry(
      home,
      { s1: { transport: 'carrier-pigeon', url: 'http://x' } },
      'broken.json',
    )
    const run = await runCli(['--json', '--config', broken, 'servers'], home)
    expect(run.code).toBe(3)
    const result = json<{ error: { code: string }; diagnostics: Record<string, unknown>[] }>(run)
    expect(result.error.code).toBe('config')
    expect(result.diagnostics[0]).toMatchObject({
      severity: 'error',
      path: 's1.transport',
      line: 3,
      column: expect.any(Number),
    })
  })

  it('exits 4 when no server can be reached', async () => {
    const down = writeRegistry(
      home,
      { gone: { url: 'http://127.0.0.1:9/mcp', dialect: 'rag-search', timeoutMs: 2_000 } },
      'down.json',
    )
    const servers = await runCli(['--json', '--config', down, 'servers'], home)
    expect(servers.code).toBe(4)
    expect(json(servers)).toMatchObject({
      servers: [{ id: 'gone', error: { code: 'unreachable' } }],
    })
    const search = await runCli(
      ['--json', '--config', down, 'search', 'vpn', '--server', 'gone'],
      home,
    )
    expect(search.code).toBe(4)
  })
})
