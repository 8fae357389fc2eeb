import { execFile } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { SAFETY_NET_MS } from '#test/support/process/limits'
import { DEMO_SECRETS } from './keys'
import {
  OWN_DOC_HOST,
  demoScript,
  eventually,
  startDemo,
  type DemoProcess,
} from '#test/support/demo/programs'

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [demoScript(), ...args],
      { timeout: SAFETY_NET_MS },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
        })
      },
    )
  })
}

describe('demo.js entry (built)', () => {
  const running: DemoProcess[] = []
  const start = async (args: string[]): Promise<DemoProcess> => {
    const demo = await startDemo(args)
    running.push(demo)
    return demo
  }
  afterEach(async () => {
    await Promise.all(running.splice(0).map((demo) => demo.stop()))
  })

  it('all: prints one line per server, the stdio command, then ready', async () => {
    const demo = await start(['all', '--port-base', '0'])
    const programs = demo.output.map((line) => line.split(/\s+/)[0])
    expect(programs.slice(0, 5)).toEqual([
      'doc-host',
      'rag-search',
      'rag-tools-v1',
      'ragbox',
      'vtex',
    ])
    expect(demo.output.find((line) => line.startsWith('rag-search'))).toMatch(
      /http:\/\/127\.0\.0\.1:\d+\/mcp/,
    )
    expect(demo.output.some((line) => /rag-tools-v1 --stdio --doc-host http/.test(line))).toBe(true)
    expect((await fetch(demo.url)).status).toBe(200)
  })

  it('keys: prints the keychain entries of the default registry', async () => {
    const { code, stdout } = await run(['keys'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual(DEMO_SECRETS)
  })

  it('users: prints the demo directory', async () => {
    const users = JSON.parse((await run(['users'])).stdout) as Array<{
      id: string
      groups: string[]
    }>
    expect(users.map((user) => user.id)).toContain('carol@example.com')
  })

  it('refuses an unknown program with the usage and exit code 2', async () => {
    const { code, stderr } = await run(['nope'])
    expect(code).toBe(2)
    expect(stderr).toContain('unknown program "nope"')
    expect(stderr).toContain('usage:')
  })

  it('reports a port already served by the same demo program as ready instead of failing', async () => {
    const first = await start(['vtex', '--port', '0'])
    const port = new URL(first.url).port
    const second = await start(['vtex', '--port', port])
    expect(second.output.at(-1)).toMatch(/^ready .* \(already served by another demo process\)$/)
  })

  it('takes the document host over when the process serving it stops', async () => {
    const first = await start(['ragbox', '--port', '0', ...OWN_DOC_HOST])
    const docs = first.docs!
    const second = await start(['vtex', '--port', '0', '--serve-docs', '--doc-host', docs])
    expect(
      second.output.some((line) =>
        line.includes('served by another demo process; taken over if it stops'),
      ),
    ).toBe(true)
    await first.stop()
    await eventually(
      async () => ((await fetch(`${docs}/healthz`).catch(() => undefined))?.ok ? true : undefined),
      SAFETY_NET_MS,
      200,
    )
    expect(second.output.some((line) => line.includes('(taken over)'))).toBe(true)
  })
})
