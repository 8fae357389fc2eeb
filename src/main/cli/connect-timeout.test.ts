import { rmSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliHome, json, runCli, writeRegistry } from '#test/support/cli/run-cli'
import { SAFETY_NET_MS } from '#test/support/process/limits'

/**
 * `--timeout` is the time budget of a whole command, connects included: a stdio server that
 * takes longer to start than its entry's `timeoutMs` connects when `--timeout` allows it, as it
 * does with `call --connect-timeout`.
 */

const SERVER = pathToFileURL(
  fileURLToPath(new URL('../../test/fixtures/pool/stdio-server.mjs', import.meta.url)),
).href
/** Starts the fixture server 2.5 s late, as a slow start under load would. */
const SLOW_START = `setTimeout(() => import(${JSON.stringify(SERVER)}), 2500)`

let home: string
let config: string

beforeAll(() => {
  home = cliHome()
  config = writeRegistry(home, {
    slow: {
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', SLOW_START],
      timeoutMs: 1000,
    },
  })
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('--timeout', () => {
  it('reaches a stdio server’s connect: servers waits for it', async () => {
    const run = await runCli(
      ['--config', config, '--json', '--timeout', String(SAFETY_NET_MS), 'servers'],
      home,
    )
    const { servers } = json<{ servers: { id: string; status: string; error: unknown }[] }>(run)
    expect(servers).toEqual([expect.objectContaining({ id: 'slow', status: 'ready', error: null })])
    expect(run.code).toBe(0)
  })

  it('reaches it for call --connect-timeout on a registry server too', async () => {
    const run = await runCli(
      [
        '--config',
        config,
        'call',
        '--server',
        'slow',
        '--connect-timeout',
        String(SAFETY_NET_MS),
        '--tool',
        'echo',
        '--args',
        '{"text":"hi"}',
      ],
      home,
    )
    expect(run.stderr).not.toMatch(/did not answer/)
    expect(run.code).toBe(0)
  })

  it('without it, the entry’s timeoutMs still bounds the connect', async () => {
    const run = await runCli(['--config', config, '--json', 'servers'], home)
    const { servers } = json<{ servers: { id: string; status: string }[] }>(run)
    expect(servers[0]!.status).not.toBe('ready')
  })
})
