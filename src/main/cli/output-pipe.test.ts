import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAFETY_NET_MS } from '#test/support/process/limits'
import { cliHome, json, runCliThroughPipe, writeRegistry } from '#test/support/cli/run-cli'

/**
 * `--json` output of several MB piped into a slow reader (`rag-console --json … | jq`) arrives
 * whole: the CLI lets stdout drain before it exits.
 */

const fixture = join(import.meta.dirname, '../../test/fixtures/services/rag-fixture.mjs')
const CHUNK = 40_000

let home: string
beforeAll(() => {
  home = cliHome()
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('--json through a pipe', () => {
  it('delivers a multi-MB search reply whole to a slow reader', async () => {
    const config = writeRegistry(home, {
      big: {
        command: process.execPath,
        args: [fixture, '--hits', '100', '--chunk-size', String(CHUNK)],
        dialect: 'rag-tools-v1',
        timeoutMs: SAFETY_NET_MS,
      },
    })
    const run = await runCliThroughPipe(
      ['--json', '--config', config, 'search', 'handbook', '--server', 'big', '--top-k', '100'],
      home,
    )
    expect(run.stdout.length).toBeGreaterThan(100 * CHUNK)
    const result = json<{ hits: { text: string }[] }>(run)
    expect(run.code).toBe(0)
    expect(result.hits).toHaveLength(100)
    for (const hit of result.hits) expect(hit.text).toHaveLength(CHUNK)
  })

  it('ends quietly with its exit code when the reader stops early (| head)', async () => {
    const config = writeRegistry(home, {
      big: {
        command: process.execPath,
        args: [fixture, '--hits', '100', '--chunk-size', '4000'],
        timeoutMs: SAFETY_NET_MS,
      },
    })
    const run = await runCliThroughPipe(
      ['--json', '--config', config, 'search', 'handbook', '--server', 'big', '--top-k', '100'],
      home,
      { reader: 'head -c 10' },
    )
    expect(run.stdout).toBe('{\n  "query')
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled/)
    expect(run.code).toBe(0)
  })

  it('delivers every diagnostic of a large invalid registry (exit 3)', async () => {
    const servers = Object.fromEntries(
      Array.from({ length: 5_000 }, (_, i) => [`s${i}`, { transport: 'pigeon', url: 'http://x' }]),
    )
    const config = writeRegistry(home, servers, 'invalid.json')
    const run = await runCliThroughPipe(['--json', '--config', config, 'servers'], home)
    const result = json<{ error: { code: string }; diagnostics: { path: string }[] }>(run)
    expect(run.code).toBe(3)
    expect(result.error.code).toBe('config')
    expect(result.diagnostics).toHaveLength(5_000)
    expect(result.diagnostics.at(-1)!.path).toBe('s4999.transport')
  })
})
