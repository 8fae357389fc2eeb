import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithKeyring, uniqueServerId } from '#test/support/secrets/keyring'
import { cliHome, json, runCli, writeRegistry } from '#test/support/cli/run-cli'

/** `secrets` against the real Secret Service (run under `bash scripts/with-keyring.sh`). */

describeWithKeyring('secrets set, list and delete in the OS keychain', () => {
  const server = uniqueServerId('cli')
  const value = `cli-secret-${randomBytes(16).toString('hex')}`
  let home: string
  let config: string

  beforeAll(() => {
    home = cliHome()
    config = writeRegistry(home, {
      [server]: {
        url: 'http://127.0.0.1:9/mcp',
        headers: { Authorization: 'Bearer ${keychain:apiKey}' },
      },
    })
  })
  afterAll(async () => {
    await runCli(
      ['--config', config, 'secrets', 'delete', '--server', server, '--name', 'apiKey'],
      home,
    )
    rmSync(home, { recursive: true, force: true })
  })

  const list = async (): Promise<unknown> => {
    const run = await runCli(
      ['--json', '--config', config, 'secrets', 'list', '--server', server],
      home,
    )
    expect(run.code).toBe(0)
    return json(run)
  }

  it('stores a value read from stdin without ever printing it', async () => {
    expect(await list()).toEqual({ secrets: [{ server, name: 'apiKey', present: false }] })
    for (const args of [['--json'], []]) {
      const run = await runCli(
        [...args, '--config', config, 'secrets', 'set', '--server', server, '--name', 'apiKey'],
        home,
        { input: `${value}\n` },
      )
      expect(run.code).toBe(0)
      expect(run.stdout + run.stderr).not.toContain(value)
      expect(run.stdout + run.stderr).not.toContain(value.slice(0, 12))
    }
    expect(await list()).toEqual({ secrets: [{ server, name: 'apiKey', present: true }] })
  })

  it('deletes it again and says so', async () => {
    const run = await runCli(
      ['--json', '--config', config, 'secrets', 'delete', '--server', server, '--name', 'apiKey'],
      home,
    )
    expect(run.code).toBe(0)
    expect(json(run)).toEqual({ server, name: 'apiKey', deleted: true })
    expect(await list()).toEqual({ secrets: [{ server, name: 'apiKey', present: false }] })
  })

  it('takes the server and name as words, as docs/secrets.md writes them', async () => {
    const set = await runCli(
      ['--json', '--config', config, 'secrets', 'set', server, 'apiKey'],
      home,
      { input: value },
    )
    expect(set.code).toBe(0)
    expect(json(set)).toEqual({ server, name: 'apiKey', present: true })
    expect(set.stdout + set.stderr).not.toContain(value)
    const listed = await runCli(['--json', '--config', config, 'secrets', 'list', server], home)
    expect(json(listed)).toEqual({ secrets: [{ server, name: 'apiKey', present: true }] })
    const deleted = await runCli(
      ['--json', '--config', config, 'secrets', 'delete', server, 'apiKey'],
      home,
    )
    expect(json(deleted)).toEqual({ server, name: 'apiKey', deleted: true })
    expect(await list()).toEqual({ secrets: [{ server, name: 'apiKey', present: false }] })
  })

  it('refuses an empty value without storing anything', async () => {
    const run = await runCli(
      ['--json', '--config', config, 'secrets', 'set', '--server', server, '--name', 'apiKey'],
      home,
      { input: '\n' },
    )
    expect(run.code).toBe(1)
    expect(json(run)).toMatchObject({ error: { code: 'invalid_argument' } })
    expect(await list()).toEqual({ secrets: [{ server, name: 'apiKey', present: false }] })
  })
})
