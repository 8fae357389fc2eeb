import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '#test/support/process/built'
import { RAGBOX_KEYS, RAG_SEARCH_API_KEY } from './keys'
import { demoScript, startDemo, type DemoProcess } from '#test/support/demo/programs'

/**
 * The proof that the demo servers speak MCP to a client this project did not write: the
 * official MCP Inspector's CLI mode, run offline against each family.
 */
const INSPECTOR = join(
  repoRoot,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
)
const available = existsSync(INSPECTOR)
if (!available) console.warn(`skipping the MCP Inspector checks: ${INSPECTOR} is not installed`)

interface Run {
  code: number
  stdout: string
  stderr: string
  json: () => Record<string, unknown>
}

let home: string

/** `mcp-inspector --cli …args`, with a private HOME so it writes nothing outside the test. */
function inspector(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, '--cli', ...args],
      {
        timeout: 60_000,
        env: { ...process.env, HOME: home, USERPROFILE: home },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, unknown> })
      },
    )
  })
}

const urlOf = (demo: DemoProcess, program: string): string => {
  const line = demo.output.find((candidate) => candidate.startsWith(`${program} `))
  return /(http:\/\/\S+)/.exec(line ?? '')![1]!
}

describe.skipIf(!available)('MCP Inspector CLI against every demo server', () => {
  let demo: DemoProcess

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'rag-demo-inspector-'))
    demo = await startDemo(['all', '--port-base', '0'])
  })
  afterAll(async () => {
    await demo?.stop()
    rmSync(home, { recursive: true, force: true })
  })

  describe('rag-search (streamable HTTP, Bearer + user headers)', () => {
    const headers = () => [
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${RAG_SEARCH_API_KEY}`,
      '--header',
      'x-user-id: bob@example.com',
      '--header',
      'x-session-tags: ["department:engineering"]',
    ]

    it('lists both tools', async () => {
      const run = await inspector([
        urlOf(demo, 'rag-search'),
        ...headers(),
        '--method',
        'tools/list',
      ])
      expect(run.code).toBe(0)
      const tools = run.json().tools as Array<{ name: string }>
      expect(tools.map((tool) => tool.name)).toEqual(['rag_search', 'verify_document_access'])
    })

    it('accepts the non-standard {status, segments} result and prints it with an empty content added', async () => {
      const run = await inspector([
        urlOf(demo, 'rag-search'),
        ...headers(),
        '--method',
        'tools/call',
        '--tool-name',
        'rag_search',
        '--tool-arg',
        'search_phrases=["incident response runbook"]',
      ])
      expect(run.code).toBe(0)
      const result = run.json()
      expect(result.status).toBe('success')
      expect((result.segments as unknown[]).length).toBeGreaterThan(0)
      // The Inspector's SDK client fills the missing `content` with [] and keeps the other keys.
      expect(result.content).toEqual([])
    })

    it('fails without the key: the 401 sends it into OAuth, which it refuses without a TTY', async () => {
      const run = await inspector([
        urlOf(demo, 'rag-search'),
        '--transport',
        'http',
        '--method',
        'tools/list',
      ])
      expect(run.code).not.toBe(0)
      expect(run.stderr).toContain('auth_required')
    })
  })

  describe('rag-tools-v1', () => {
    it('over stdio: lists the tools and discovers resources as a user', async () => {
      const command = ['--', process.execPath, demoScript(), 'rag-tools-v1', '--stdio']
      const list = await inspector(['--method', 'tools/list', ...command])
      expect(list.code).toBe(0)
      expect((list.json().tools as Array<{ name: string }>).map((tool) => tool.name)).toContain(
        'rag_get_raw_results',
      )
      const call = await inspector([
        '--method',
        'tools/call',
        '--tool-name',
        'rag_discover_resources',
        '--tool-arg',
        'username=alice@example.com',
        ...command,
      ])
      expect(call.code).toBe(0)
      const structured = call.json().structuredContent as {
        results: { resources: Array<{ id: string }> }
      }
      expect(structured.results.resources.map((resource) => resource.id)).toEqual([
        'handbook',
        'sales',
      ])
    })

    it('over legacy SSE: returns the v2 envelope with hits', async () => {
      const run = await inspector([
        urlOf(demo, 'rag-tools-v1'),
        '--transport',
        'sse',
        '--method',
        'tools/call',
        '--tool-name',
        'rag_get_raw_results',
        '--tool-arg',
        'username=bob@example.com',
        'query=reset multi-factor authentication',
        'sources=["it-kb"]',
      ])
      expect(run.code).toBe(0)
      const structured = run.json().structuredContent as {
        results: { hits: Array<{ resourceId: string }> }
      }
      expect(structured.results.hits.length).toBeGreaterThan(0)
      expect(structured.results.hits.every((hit) => hit.resourceId === 'it-kb')).toBe(true)
    })
  })

  describe('ragbox (HTTP, X-API-Key)', () => {
    it('answers query_knowledge as JSON in the text block', async () => {
      const run = await inspector([
        urlOf(demo, 'ragbox'),
        '--transport',
        'http',
        '--header',
        `X-API-Key: ${RAGBOX_KEYS.acme}`,
        '--method',
        'tools/call',
        '--tool-name',
        'query_knowledge',
        '--tool-arg',
        'query=How many days of paid time off do employees accrue?',
      ])
      expect(run.code).toBe(0)
      const [block] = run.json().content as Array<{ type: string; text: string }>
      expect(JSON.parse(block!.text)).toMatchObject({ silence: false })
    })

    it('fails without the key', async () => {
      const run = await inspector([
        urlOf(demo, 'ragbox'),
        '--transport',
        'http',
        '--method',
        'tools/list',
      ])
      expect(run.code).not.toBe(0)
    })
  })

  describe('vtex (through the generic router)', () => {
    const router = () => `${urlOf(demo, 'vtex')}/inspector`

    it('lists the tool and searches', async () => {
      const list = await inspector([router(), '--transport', 'http', '--method', 'tools/list'])
      expect(list.code).toBe(0)
      expect(list.json().tools).toMatchObject([{ name: 'search_documents' }])
      const call = await inspector([
        router(),
        '--transport',
        'http',
        '--method',
        'tools/call',
        '--tool-name',
        'search_documents',
        '--tool-arg',
        'query=vpn',
        'limit=2',
      ])
      expect(call.code).toBe(0)
      const [block] = call.json().content as Array<{ text: string }>
      expect((JSON.parse(block!.text) as { results: unknown[] }).results).toHaveLength(2)
    })

    it('reads a rag:// resource', async () => {
      const run = await inspector([
        router(),
        '--transport',
        'http',
        '--method',
        'resources/read',
        '--uri',
        'rag://categories',
      ])
      expect(run.code).toBe(0)
      const [content] = run.json().contents as Array<{ uri: string; text: string }>
      expect(content!.uri).toBe('rag://categories')
      expect(JSON.parse(content!.text)).toHaveProperty('categories')
    })
  })
})
