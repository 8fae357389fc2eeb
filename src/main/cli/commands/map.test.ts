import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'jsonc-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../../../test/built'
import { cliHome, json, runCli } from '../testing/run-cli'

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

describe('map against real third-party search servers', () => {
  it('proposes a mapping of a JSON text reply, guessing filepath and excerpt', async () => {
    const run = await cli('--json', 'map', '--server', 'docs', '--query', 'memory')
    expect(run.code, run.stderr).toBe(0)
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
