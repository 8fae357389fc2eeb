import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startDemo, type DemoProcess } from '#test/support/demo/programs'
import { KeychainStore } from '#core/secrets/keychain-store'
import { freePort } from '#test/support/pool/helpers'
import { describeWithKeyring, uniqueServerId } from '#test/support/secrets/keyring'
import {
  cliEnv,
  cliHome,
  json,
  runCli,
  spawnCli,
  writeRegistry,
  type CliRun,
} from '#test/support/cli/run-cli'

/** Every file's text under a folder (what the CLI left on disk). */
function filesText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n')
}

describeWithKeyring('rag-console auth, against the demo OAuth server and the real keychain', () => {
  const server = uniqueServerId('cli-oauth')
  const lazy = uniqueServerId('cli-oauth-lazy')
  const gone = uniqueServerId('cli-oauth-gone')
  const noIssuer = uniqueServerId('cli-oauth-no-issuer')
  let deadIssuer: string
  const keychain = new KeychainStore()
  const runs: CliRun[] = []
  let demo: DemoProcess
  let home: string
  let config: string

  const cli = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> => {
    const run = await runCli(['--config', config, ...args], home, { env })
    runs.push(run)
    return run
  }
  const fetchOpener = { RAG_CONSOLE_OAUTH_OPENER: 'fetch' }

  beforeAll(async () => {
    demo = await startDemo(['oauth', '--port', '0', '--approve-as', 'carol@example.com'])
    home = cliHome()
    deadIssuer = `http://127.0.0.1:${await freePort()}`
    config = writeRegistry(home, {
      [server]: { url: demo.url, oauth: {} },
      [lazy]: { url: demo.url },
      // Nothing listens there: the sign-in cannot reach it.
      [gone]: { url: `http://127.0.0.1:${await freePort()}/mcp`, oauth: {} },
      // The server answers; its authorization server does not.
      [noIssuer]: { url: demo.url, oauth: { authorizationServerUrl: deadIssuer } },
    })
  })

  afterAll(async () => {
    for (const id of [server, lazy, gone, noIssuer]) {
      for (const name of ['oauth.tokens', 'oauth.client', 'oauth.verifier']) {
        await keychain.delete(id, name)
      }
    }
    await demo?.stop()
    rmSync(home, { recursive: true, force: true })
  })

  it('reports sign-in required, and a command under --json exits 4 naming auth login', async () => {
    const status = await cli(['--json', 'auth', 'status', '--server', server])
    expect(status.code).toBe(0)
    expect(json(status)).toMatchObject({ servers: [{ server, state: 'sign_in_required' }] })
    const tools = await cli(['--json', 'tools', '--server', server])
    expect(tools.code).toBe(4)
    expect(tools.stdout + tools.stderr).toContain(`rag-console auth login --server ${server}`)
  })

  it('a --url server that needs sign-in exits 4 with advice that works for a URL', async () => {
    const tools = await cli(['--json', 'tools', '--url', demo.url])
    expect(tools.code).toBe(4)
    const said = tools.stdout + tools.stderr
    // `auth login` takes registry ids only: naming the ad-hoc id would send people nowhere.
    expect(said).not.toContain('--server command-line')
    expect(said).toMatch(/at a terminal without --json/)
    expect(said).toMatch(/add it to rag-mcp\.json/)
  })

  it('a sign-in that cannot reach the server says unreachable and exits 4', async () => {
    const login = await cli(['--json', 'auth', 'login', '--server', gone], fetchOpener)
    expect(login.code).toBe(4)
    expect(json(login)).toMatchObject({ error: { code: 'unreachable' } })
    expect(login.stdout).toMatch(/connection refused \(ECONNREFUSED\)/)
  })

  it('a sign-in whose authorization server cannot be reached names it, and exits 4', async () => {
    const login = await cli(['--json', 'auth', 'login', '--server', noIssuer], fetchOpener)
    expect(login.code).toBe(4)
    const { error } = json<{ error: { code: string; message: string } }>(login)
    expect(error.code).toBe('unreachable')
    expect(error.message).toContain(`sign-in to server ${noIssuer} failed`)
    expect(error.message).toContain(`cannot reach its authorization server ${deadIssuer}`)
    expect(error.message).toMatch(/connection refused \(ECONNREFUSED\)/)
  })

  it('a --url server whose sign-in cannot reach its authorization server: exit 4, no registry id', async () => {
    const oauth = JSON.stringify({ authorizationServerUrl: deadIssuer })
    for (const args of [['--json'], []]) {
      const run = await cli([...args, 'tools', '--url', demo.url, '--oauth', oauth], fetchOpener)
      expect(run.code).toBe(4)
      const said = run.stdout + run.stderr
      expect(said).toContain('sign-in to the server given by --url failed')
      expect(said).toContain(`cannot reach its authorization server ${deadIssuer}`)
      // `command-line` is no server id any command takes.
      expect(said).not.toContain('command-line')
    }
  })

  it('auth login prints the URL, waits for the browser and keeps the tokens in the keychain only', async () => {
    // The test plays the person's browser: it opens the printed URL, which comes back to the
    // CLI's loopback redirect.
    const child = spawnCli(
      ['--json', '--config', config, 'auth', 'login', '--server', server],
      cliEnv(home),
    )
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const url = await new Promise<string>((resolve) => {
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk
        const printed = /open this URL .*\n(\S+)/.exec(stderr)?.[1]
        if (printed) resolve(printed)
      })
    })
    expect(new URL(url).pathname).toBe('/authorize')
    const browser = await fetch(url)
    expect(await browser.text()).toContain(`Signed in to ${server}. You can close this tab.`)
    expect(await exited).toBe(0)
    const login = { code: 0, stdout, stderr }
    runs.push(login)
    expect(json(login)).toMatchObject({ server, state: 'signed_in', account: 'carol@example.com' })
    const stored = JSON.parse((await keychain.get(server, 'oauth.tokens'))!)
    expect(stored.tokens.refresh_token).toMatch(/^rt_/)

    const tools = await cli(['--json', 'tools', '--server', server])
    expect(tools.code).toBe(0)
    expect(JSON.stringify(json(tools))).toContain('rag_get_raw_results')
    const table = await cli(['auth', 'status'])
    expect(table.stdout).toMatch(new RegExp(`${server}\\s+signed in\\s+carol@example.com`))
  })

  it('any other command signs in on its own when it can (here: the test opener)', async () => {
    const tools = await cli(['--json', 'tools', '--server', lazy], fetchOpener)
    expect(tools.code).toBe(0)
    expect(await keychain.get(lazy, 'oauth.tokens')).not.toBeNull()
  })

  it('auth logout deletes the tokens; the server needs signing in again', async () => {
    const tokens = JSON.parse((await keychain.get(server, 'oauth.tokens'))!).tokens
    const logout = await cli(['auth', 'logout', '--server', server])
    expect(logout.code).toBe(0)
    expect(logout.stdout).toContain(`signed out of ${server}`)
    expect(await keychain.get(server, 'oauth.tokens')).toBeNull()
    const status = await cli(['--json', 'auth', 'status', '--server', server])
    expect(json(status)).toMatchObject({ servers: [{ state: 'sign_in_required' }] })
    // No token ever reached the output or a file of the data folder.
    const printed = runs.map((run) => run.stdout + run.stderr).join('\n')
    const files = filesText(home)
    for (const secret of [tokens.access_token, tokens.refresh_token]) {
      expect(printed).not.toContain(secret)
      expect(files).not.toContain(secret)
    }
  })

  it('refuses auth without an action or a server, and an unknown server', async () => {
    expect((await cli(['auth'])).code).toBe(2)
    expect((await cli(['auth', 'login'])).code).toBe(2)
    const unknown = await cli(['auth', 'login', '--server', 'nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('no server "nope"')
  })
})
