import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEMO_SECRETS } from '#demo/keys'
import { demoScript, postJson, startDemo, type DemoProcess } from './support/demo/programs'
import { loadEmbeddedRegistry } from '#core/config/embedded'
import { loadSource } from '#core/config/load'
import { createCore } from '#core/core'
import { repoRoot } from './support/process/built'

/** The embedded registry exactly as the console loads it (`${app:…}` substituted, validated). */
const loaded = loadSource({ kind: 'embedded', files: [], label: 'demo' }, () =>
  loadEmbeddedRegistry({
    file: join(repoRoot, 'resources/default-registry.json'),
    demo: demoScript(),
  }),
)
const servers = loaded.build.servers

/** What the keychain would resolve `${keychain:NAME}` to for this server. */
function withSecrets(id: string, value: string): string {
  return value.replace(/\$\{keychain:(\w+)\}/g, (_, name: string) => DEMO_SECRETS[id]![name]!)
}

const EXPECTED_TOOLS: Record<string, string[]> = {
  'rag-search': ['rag_search', 'verify_document_access'],
  'rag-tools-v1': ['rag_discover_resources', 'rag_get_raw_results', 'rag_get_synthesized_results'],
  ragbox: ['search_documents', 'get_document', 'query_knowledge', 'list_documents'],
  vtex: ['search_documents'],
}

describe('embedded default registry', () => {
  const running: DemoProcess[] = []
  afterAll(async () => {
    await Promise.all(running.map((demo) => demo.stop()))
  })

  it('loads without a single diagnostic and has one entry per family, stdio and SSE included', () => {
    expect(loaded.build.diagnostics).toEqual([])
    expect(loaded.build.ok).toBe(true)
    for (const server of servers) expect(server.description, server.id).toMatch(/^Demo · /)
    expect(
      servers.map((server) => `${server.dialect as string}/${server.transport}`).sort(),
    ).toEqual([
      'rag-search/http',
      'rag-tools-v1/sse',
      'rag-tools-v1/stdio',
      'ragbox/http',
      'vtex/http',
    ])
  })

  it('names a keychain secret the demo module provides for every ${keychain:…} reference', () => {
    for (const server of servers) {
      for (const value of Object.values(server.headers)) {
        for (const [, name] of value.matchAll(/\$\{keychain:(\w+)\}/g)) {
          expect(DEMO_SECRETS[server.id]?.[name!], `${server.id}/${name}`).toBeDefined()
        }
      }
    }
  })

  for (const entry of servers) {
    const id = entry.id
    const expected = EXPECTED_TOOLS[entry.dialect as string]!
    it(`${id}: starts from its own command line and lists the ${entry.dialect} tools`, async () => {
      const headers = Object.fromEntries(
        Object.entries(entry.headers).map(([name, value]) => [name, withSecrets(id, value)]),
      )
      let transport: Transport | undefined
      let url: URL | undefined
      if (entry.transport === 'stdio') {
        const [script, ...args] = entry.args
        expect(entry.command).toBe(process.execPath)
        expect(script).toBe(demoScript())
        transport = new StdioClientTransport({
          command: process.execPath,
          args: [script!, ...args, '--doc-host', 'http://127.0.0.1:0'],
          stderr: 'ignore',
        })
      } else {
        const launch = entry.launch!
        expect(launch.command).toBe(process.execPath)
        const args = [...launch.args!]
        const fixedPort = args[args.indexOf('--port') + 1]!
        expect(new URL(entry.url!).port).toBe(fixedPort)
        // Tests never bind fixed ports: same command line on port 0, then map the ready line back.
        args[args.indexOf('--port') + 1] = '0'
        const demo = await startDemo([...args.slice(1), '--doc-host', 'http://127.0.0.1:0'])
        running.push(demo)
        const ready = demo.output.find((line) => line.startsWith('ready '))!
        const actual = new URL(demo.url)
        expect(ready.replace(`:${actual.port}/`, `:${fixedPort}/`)).toMatch(
          new RegExp(launch.readyPattern!),
        )
        url = new URL(`${actual.origin}${new URL(entry.url!).pathname}`)
        if (entry.dialect === 'vtex') {
          const reply = await postJson(`${url.href}/tools/list`, {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/list',
          })
          const tools = (reply.body!.result as { tools: Array<{ name: string }> }).tools
          expect(tools.map((tool) => tool.name)).toEqual(expected)
          return
        }
        transport =
          entry.transport === 'sse'
            ? new SSEClientTransport(url)
            : new StreamableHTTPClientTransport(url, { requestInit: { headers } })
      }
      const client = new Client({ name: 'registry-test', version: '1.0.0' })
      await client.connect(transport)
      try {
        const { tools } = await client.listTools()
        expect(tools.map((tool) => tool.name)).toEqual(expected)
      } finally {
        await client.close()
      }
    })
  }
})

describe('the embedded registry saved as it is', () => {
  it('changes no server: the demo entries name their working folder, not the file they sit in', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rc-embedded-'))
    const core = await createCore({ dataDir, env: { HOME: dataDir }, watch: false })
    try {
      const raw = await core.registry.readRaw()
      expect(raw.fromEmbedded).toBe(true)
      const draft = await core.registry.validateDraft(raw.text)
      expect(draft.diff?.changed).toEqual([])
      expect(draft.diff?.unchanged).toHaveLength(servers.length)
    } finally {
      await core.dispose()
    }
  })
})
