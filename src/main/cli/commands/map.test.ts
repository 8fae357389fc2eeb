import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'jsonc-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '#test/support/process/built'
import { auditLines, cliHome, json, runCli } from '#test/support/cli/run-cli'

/**
 * `map` of the built CLI against search servers this project did not write, installed from the
 * npm registry and run offline over stdio: `@voltagent/docs-mcp` (JSON in a text block, with
 * `filepath` and `excerpt`), `@rio-cloud/uikit-mcp` (`structuredContent` results, tools
 * annotated read-only) and `@modelcontextprotocol/server-memory` (a knowledge graph whose write
 * tools sit beside `search_nodes`).
 */

/** A file of a package installed in the repository. */
const entry = (pkg: string, file: string): string => join(repoRoot, 'node_modules', pkg, file)

let home: string
let dir: string
let config: string

const REGISTRY = {
  docs: { command: process.execPath, args: [entry('@voltagent/docs-mcp', 'dist/index.js')] },
  uikit: { command: process.execPath, args: [entry('@rio-cloud/uikit-mcp', 'dist/index.mjs')] },
  memory: {
    command: process.execPath,
    args: [entry('@modelcontextprotocol/server-memory', 'dist/index.js')],
    env: { MEMORY_FILE_PATH: '' },
  },
}

beforeAll(() => {
  home = cliHome()
  dir = mkdtempSync(join(tmpdir(), 'rc-map-'))
  const memory = join(dir, 'memory.jsonl')
  writeFileSync(
    memory,
    [
      {
        type: 'entity',
        name: 'Leave policy',
        entityType: 'policy',
        observations: ['Employees accrue 25 days of leave per year.'],
      },
      { type: 'entity', name: 'VPN', entityType: 'system', observations: ['Use it off-site.'] },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n'),
  )
  REGISTRY.memory.env.MEMORY_FILE_PATH = memory
  config = join(dir, 'rag-mcp.json')
  writeFileSync(config, `// servers under test\n${JSON.stringify(REGISTRY, null, 2)}\n`)
})
afterAll(() => {
  rmSync(home, { recursive: true, force: true })
  rmSync(dir, { recursive: true, force: true })
})

const cli = (...args: string[]) => runCli(['--config', config, ...args], home)
const dialectOf = (server: string): unknown =>
  (parse(readFileSync(config, 'utf8')) as Record<string, { dialect?: unknown }>)[server]?.dialect

interface Proposed {
  tool: string
  dialect: { search: Record<string, unknown> }
  hits: { id: string; title: string; uri?: string; snippet: string }[]
  count: number
  violations: unknown[]
}

interface DoctorJson {
  servers: { checks: { id: string; status: string; evidence: { found?: string } }[] }[]
}
const doctor = async (server: string) => {
  const run = await cli('--json', 'doctor', '--server', server)
  return { code: run.code, stderr: run.stderr, checks: json<DoctorJson>(run).servers[0]!.checks }
}

/** Doctor's checks of a mapped server: the protocol's pass, the generic one is `generic`. */
const checks = (generic: string) => [
  ['protocol.initialize', 'pass'],
  ['protocol.ping', 'pass'],
  ['protocol.tools-list', 'pass'],
  ['protocol.errors', 'pass'],
  ['generic.search-tool', generic],
]

describe('map against real third-party search servers', () => {
  it('suggests the search tool of each server in servers and doctor before any mapping', async () => {
    const listed = await cli('--json', 'servers')
    expect(listed.code, listed.stderr).toBe(0)
    const rows = json<{ servers: { id: string; dialect: null; searchable: string[] }[] }>(listed)
    expect(Object.fromEntries(rows.servers.map((row) => [row.id, row.searchable[0]]))).toEqual({
      docs: 'search_voltagent_docs(query)',
      uikit: 'search_docs(query)',
      memory: 'search_nodes(query)',
    })
    // The write tools beside search_nodes are never suggested.
    expect(rows.servers.find((row) => row.id === 'memory')!.searchable.join()).not.toMatch(
      /create|delete|add/,
    )
    const table = await cli('servers')
    expect(table.stdout).toMatch(
      /^docs: looks searchable: search_voltagent_docs\(query\), search_voltagent_examples\(query\).*; map it: rag-console map --server docs --query TEXT$/m,
    )

    const report = await doctor('docs')
    expect(report.checks.find((check) => check.id === 'generic.search-tool')).toMatchObject({
      status: 'warn',
      evidence: {
        found: expect.stringMatching(
          /search_voltagent_docs looks like search.*Use as search, or rag-console map --server docs --tool search_voltagent_docs/,
        ),
      },
    })
  })

  it('proposes a mapping of a JSON text reply, guessing filepath and excerpt', async () => {
    const before = auditLines(home).length
    const run = await cli('--json', 'map', '--server', 'docs', '--query', 'memory')
    expect(run.code, run.stderr).toBe(0)
    // The sample call is audited as any call made by hand.
    expect(auditLines(home).slice(before)).toEqual([
      expect.objectContaining({
        server: 'docs',
        operation: 'workbench',
        tool: 'search_voltagent_docs',
        outcome: 'ok',
      }),
    ])
    const doc = json<Proposed>(run)
    expect(doc.tool).toBe('search_voltagent_docs')
    expect(doc.dialect.search).toEqual({
      tool: 'search_voltagent_docs',
      arguments: { query: '{query}' },
      hits: 'results',
      fields: {
        id: 'filepath',
        title: 'title',
        snippet: 'excerpt',
        uri: 'filepath',
        sourceId: 'section',
      },
    })
    expect(doc.count).toBeGreaterThan(1)
    expect(doc.violations).toEqual([])
    expect(doc.hits[0]!.uri).toMatch(/\.mdx?$/)
    expect(run.stderr).toMatch(/mapping search_voltagent_docs\(query\): its name says search/)
    // Nothing is written without --write.
    expect(dialectOf('docs')).toBeUndefined()

    // Saved, it passes every check of Doctor, the generic one included.
    expect((await cli('map', '--server', 'docs', '--query', 'memory', '--write')).code).toBe(0)
    const report = await doctor('docs')
    expect(report.code, report.stderr).toBe(0)
    expect(report.checks.map((check) => [check.id, check.status])).toEqual(checks('pass'))
  })

  it('prints the mapping as the JSON to put in rag-mcp.json', async () => {
    const run = await cli('map', '--server', 'uikit', '--query', 'button')
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      dialect: {
        search: {
          tool: 'search_docs',
          arguments: { query: '{query}' },
          hits: 'results',
          fields: {
            title: 'title',
            snippet: 'summary',
            uri: 'resource',
            sourceId: 'section',
          },
        },
      },
    })
    expect(run.stderr).toMatch(/hit\(s\) in the reply through this mapping/)
    expect(run.stderr).toMatch(/Button <uikit-doc:\/\/components\/button>/)
  })

  it('saves with --write through the safe save, and search then returns hits', async () => {
    const saved = await cli('map', '--server', 'uikit', '--query', 'button', '--write')
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stderr).toMatch(/saved uikit's search mapping to .*rag-mcp\.json/)
    expect(dialectOf('uikit')).toMatchObject({ search: { tool: 'search_docs', hits: 'results' } })
    expect(readFileSync(config, 'utf8')).toMatch(/^\/\/ servers under test/)
    const search = await cli('--json', 'search', 'table', '--server', 'uikit')
    expect(search.code, search.stderr).toBe(0)
    const result = json<{ hits: { server: string; uri?: string }[] }>(search)
    expect(result.hits.length).toBeGreaterThan(0)
    expect(result.hits[0]).toMatchObject({
      server: 'uikit',
      uri: expect.stringMatching(/^uikit-doc:\/\//),
    })
    // Doctor searches "policy", which no page of the UI kit mentions: the mapped tool answers
    // without hits, said so (warn), and nothing fails.
    const report = await doctor('uikit')
    expect(report.code, report.stderr).toBe(0)
    expect(report.checks.map((check) => [check.id, check.status])).toEqual(checks('warn'))
    expect(report.checks[4]!.evidence.found).toBe(
      'search_docs answered, but the mapping found no hits for "policy"',
    )
  })

  it('takes --field overrides, maps a knowledge graph and leaves its write tools alone', async () => {
    const graph = readFileSync(REGISTRY.memory.env.MEMORY_FILE_PATH, 'utf8')
    const run = await cli(
      '--json',
      'map',
      '--server',
      'memory',
      '--query',
      'leave',
      '--field',
      'sourceId=entityType',
      '--field',
      'snippet=',
      '--write',
    )
    expect(run.code, run.stderr).toBe(0)
    const doc = json<Proposed & { written: { path: string } }>(run)
    expect(doc.tool).toBe('search_nodes')
    expect(doc.dialect.search).toMatchObject({
      hits: 'entities',
      fields: { id: 'name', title: 'name', text: 'observations', sourceId: 'entityType' },
    })
    expect(doc.written.path).toBe(config)
    expect(readFileSync(REGISTRY.memory.env.MEMORY_FILE_PATH, 'utf8')).toBe(graph)
    const search = await cli('--json', 'search', 'leave', '--server', 'memory')
    expect(search.code, search.stderr).toBe(0)
    expect(json<{ hits: { id: string }[] }>(search).hits.map((hit) => hit.id)).toEqual([
      'Leave policy',
    ])
    const report = await doctor('memory')
    expect(report.checks.find((check) => check.id === 'generic.search-tool')!.status).toBe('pass')
  })

  it('needs a query, and a known role in --field', async () => {
    expect((await cli('map', '--server', 'docs')).code).toBe(2)
    const bad = await cli('map', '--server', 'docs', '--query', 'x', '--field', 'link=url')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--field must be ROLE=PATH with ROLE one of id, title/)
  })

  it('says which tools there are when --tool names none of them', async () => {
    const run = await cli('map', '--server', 'memory', '--query', 'x', '--tool', 'nope')
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/lists no tool "nope" \(it lists create_entities, /)
  })
})
