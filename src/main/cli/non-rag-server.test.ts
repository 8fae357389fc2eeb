import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from '#test/support/demo/programs'
import {
  DEMO_KEY_ENV,
  cliHome,
  demoRegistry,
  json,
  runCli,
  writeRegistry,
} from '#test/support/cli/run-cli'
import { packageFile } from '#test/support/process/package-file'

/**
 * A server that is no RAG server (`@modelcontextprotocol/server-memory`: no search tool the
 * console knows, no mapping) registered beside a RAG server: it is not a search source until it
 * is mapped, so a default search leaves it out and succeeds, and discovery never shows it with a
 * selected source.
 */

const memory = packageFile('@modelcontextprotocol/server-memory', 'dist/index.js')

let demo: DemoProcess
let home: string
let config: string

const cli = (args: string[]) => runCli(['--config', config, ...args], home, { env: DEMO_KEY_ENV })

beforeAll(async () => {
  demo = await startDemo(['all', '--port-base', '0'])
  home = cliHome()
  config = writeRegistry(home, {
    knowledgeSearch: demoRegistry(demo).knowledgeSearch,
    memory: {
      transport: 'stdio',
      command: process.execPath,
      args: [memory],
      env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') },
    },
  })
})

afterAll(async () => {
  await demo?.stop()
  if (home) rmSync(home, { recursive: true, force: true })
})

describe('a server that is not a search source', () => {
  it('is left out of a default search, which succeeds (exit 0)', async () => {
    const run = await cli(['--json', '--user', 'bob@example.com', 'search', 'vpn setup'])
    expect(run.code).toBe(0)
    const result = json<{ servers: { server: string; ok: boolean }[] }>(run)
    expect(result.servers.map((s) => [s.server, s.ok])).toEqual([['knowledgeSearch', true]])
  })

  it('has no selected source in discover --json, and says how to make it one', async () => {
    const run = await cli(['--json', 'discover'])
    const { servers } = json<{
      servers: {
        server: string
        ok: boolean
        error: { message: string } | null
        sources: { selected: boolean }[]
      }[]
    }>(run)
    const found = servers.find((s) => s.server === 'memory')!
    expect(found.ok).toBe(false)
    expect(found.sources.filter((s) => s.selected)).toEqual([])
    expect(found.error?.message).toMatch(
      /not a search source until you map one of its tools to search/,
    )
  })

  it('is not said to be covered whole by a search', async () => {
    const text = await cli(['discover'])
    expect(text.stdout).toMatch(/^memory: unsupported: .*not a search source/m)
    expect(text.stdout).not.toMatch(/covers everything/)
  })
})
