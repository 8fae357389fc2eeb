import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryMapping } from '#test/fixtures/dialects/generic'
import { genericAdapter } from './generic'
import { detect } from './registry'
import { asUser } from '#test/support/dialects/recording-session'
import { connectStdio, type StdioSession } from '#test/support/dialects/sdk-session'
import { expectWellFormed } from '#test/support/dialects/well-formed'

/**
 * The generic adapter against a server this project did not write:
 * `@modelcontextprotocol/server-memory` over stdio, with a mapping of its `search_nodes`.
 */
const serverEntry = join(
  dirname(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/package.json'),
  ),
  'dist/index.js',
)

describe('generic adapter on @modelcontextprotocol/server-memory', () => {
  let dir: string
  let session: StdioSession

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rag-memory-'))
    session = await connectStdio({
      serverId: 'memory',
      command: process.execPath,
      args: [serverEntry],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      dialect: { search: memoryMapping },
    })
    await session.callTool(
      'create_entities',
      {
        entities: [
          {
            name: 'Leave policy',
            entityType: 'policy',
            observations: [
              'Employees accrue 25 days of leave per year.',
              'Requests go through HR.',
            ],
          },
          { name: 'VPN', entityType: 'system', observations: ['Use the VPN off-site.'] },
        ],
      },
      asUser(undefined, 'call'),
    )
  })

  afterAll(async () => {
    await session?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('is not detected as a RAG server on its own, with the reason', () => {
    const info = detect(session.tools)
    expect(info.id).toBeNull()
    expect(info.reason).toMatch(
      /^not a RAG server: no rag_search, rag_get_raw_results or search_documents/,
    )
    expect(info.reason).toContain('search_nodes')
  })

  it('is used through the config mapping of search_nodes', () => {
    expect(detect(session.tools, { search: memoryMapping })).toEqual({
      id: 'generic',
      source: 'config',
      reason: 'config maps tool search_nodes to search',
    })
  })

  it('returns the matching entities as hits without violations', async () => {
    const output = await genericAdapter.search(
      session,
      { query: 'leave', phrases: [], topK: 5, sources: [] },
      asUser(),
    )
    expectWellFormed(output)
    expect(output.violations).toEqual([])
    expect(output.hits).toHaveLength(1)
    expect(output.hits[0]).toMatchObject({
      server: 'memory',
      id: 'Leave policy',
      title: 'Leave policy',
      sourceId: 'policy',
      text: 'Employees accrue 25 days of leave per year.\nRequests go through HR.',
      derived: { title: false, summary: true },
    })
  })
})
