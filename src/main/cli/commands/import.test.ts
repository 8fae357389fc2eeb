import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { demoScript, startDemo, type DemoProcess } from '#test/support/demo/programs'
import { describeWithKeyring, uniqueServerId } from '#test/support/secrets/keyring'
import { cliHome, json, runCli, writeRegistry } from '#test/support/cli/run-cli'

/**
 * `rag-console import` onboards the servers of Claude Desktop, Cursor and VS Code configs from
 * a terminal through the Config panel's import path: real files, the real keychain (run under
 * `bash scripts/with-keyring.sh`), and a second CLI process that then uses what was imported.
 */

const KEY = `import-key-${randomBytes(12).toString('hex')}`
const TOKEN = `tok_${randomBytes(20).toString('hex')}`
/** Each test starts several CLI processes, one after the other. */
const SEVERAL_RUNS_MS = 60_000
const BOB = ['--user', 'bob@example.com', '--tags', '["department:engineering"]']

describeWithKeyring('rag-console import', () => {
  const cursorServer = uniqueServerId('cursor')
  const claudeServer = uniqueServerId('claude')
  const vscodeServer = uniqueServerId('vscode')
  let demo: DemoProcess
  let home: string
  let config: string
  /** The environment in which `claude-desktop` names this test's Claude Desktop config. */
  let clients: NodeJS.ProcessEnv
  let cursorFile: string
  let vscodeFile: string

  const cli = (args: string[], input?: string) =>
    runCli(['--config', config, ...args], home, {
      env: clients,
      ...(input === undefined ? {} : { input }),
    })
  const registryText = (): string => readFileSync(config, 'utf8')

  beforeAll(async () => {
    demo = await startDemo(['rag-search', '--port', '0', '--api-key', KEY])
    home = cliHome()
    config = writeRegistry(home, {})
    cursorFile = join(home, 'cursor-mcp.json')
    writeFileSync(
      cursorFile,
      JSON.stringify({
        mcpServers: {
          [cursorServer]: { url: demo.url, headers: { Authorization: `Bearer ${KEY}` } },
        },
      }),
    )
    const xdg = join(home, 'xdg')
    mkdirSync(join(xdg, 'Claude'), { recursive: true })
    writeFileSync(
      join(xdg, 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({
        mcpServers: {
          [claudeServer]: {
            command: process.execPath,
            args: [demoScript(), 'rag-tools-v1', '--stdio'],
            env: { DOCS_API_TOKEN: TOKEN },
          },
        },
      }),
    )
    clients = { HOME: home, XDG_CONFIG_HOME: xdg }
    vscodeFile = join(home, 'vscode-mcp.json')
    writeFileSync(
      vscodeFile,
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'ragKey', description: 'RAG key', password: true }],
        servers: {
          [vscodeServer]: {
            type: 'http',
            url: demo.url,
            headers: { Authorization: 'Bearer ${input:ragKey}' },
          },
        },
      }),
    )
  })

  afterAll(async () => {
    for (const [server, name] of [
      [cursorServer, 'token'],
      [claudeServer, 'DOCS_API_TOKEN'],
      [vscodeServer, 'ragKey'],
    ])
      await cli(['secrets', 'delete', server!, name!])
    await demo?.stop()
    if (home) rmSync(home, { recursive: true, force: true })
  })

  it(
    'previews with --dry-run: what would change and move, nothing written or stored',
    async () => {
      const before = registryText()
      const run = await cli(['--json', 'import', cursorFile, '--dry-run'])
      expect(run.code, run.stderr).toBe(0)
      expect(json(run)).toMatchObject({
        dryRun: true,
        target: config,
        servers: [
          {
            id: cursorServer,
            status: 'added',
            imported: true,
            fields: { url: demo.url, headers: { Authorization: 'Bearer ${keychain:token}' } },
          },
        ],
        secretsToMove: [{ server: cursorServer, name: 'token', where: 'headers.Authorization' }],
      })
      expect(run.stdout + run.stderr).not.toContain(KEY)
      expect(registryText()).toBe(before)
      const readable = await cli(['import', cursorFile, '--dry-run'])
      expect(readable.stdout).toMatch(new RegExp(`${cursorServer} +added +yes +http`))
      expect(readable.stdout).toContain('nothing written')
    },
    SEVERAL_RUNS_MS,
  )

  it(
    'imports a Cursor config: the key goes to the keychain, and a new process searches with it',
    async () => {
      const run = await cli(['--json', 'import', cursorFile])
      expect(run.code, run.stderr).toBe(0)
      expect(json(run)).toMatchObject({
        status: 'saved',
        path: config,
        imported: [cursorServer],
        movedSecrets: [{ server: cursorServer, name: 'token', where: 'headers.Authorization' }],
      })
      expect(run.stdout + run.stderr).not.toContain(KEY)
      expect(registryText()).not.toContain(KEY)
      expect(registryText()).toContain('Bearer ${keychain:token}')
      // The demo refuses any other key: hits mean the keychain's value was sent.
      const search = await cli(['--json', ...BOB, 'search', 'vpn', '--server', cursorServer])
      expect(search.code, search.stderr).toBe(0)
      expect(json<{ hits: unknown[] }>(search).hits.length).toBeGreaterThan(0)
    },
    SEVERAL_RUNS_MS,
  )

  it(
    'finds Claude Desktop’s config by name and imports its stdio server',
    async () => {
      const run = await cli(['import', 'claude-desktop'])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain(`imported ${claudeServer}`)
      expect(run.stdout).toContain(
        `moved ${claudeServer} env.DOCS_API_TOKEN to the keychain as DOCS_API_TOKEN`,
      )
      expect(registryText()).not.toContain(TOKEN)
      const secrets = json<{ secrets: object[] }>(await cli(['--json', 'secrets', 'list']))
      expect(secrets.secrets).toContainEqual({
        server: claudeServer,
        name: 'DOCS_API_TOKEN',
        present: true,
      })
      const call = await cli([
        '--json',
        'call',
        '--server',
        claudeServer,
        '--tool',
        'rag_discover_resources',
        '--args',
        '{"username": "alice@example.com"}',
      ])
      expect(call.code, call.stderr).toBe(0)
    },
    SEVERAL_RUNS_MS,
  )

  it(
    'imports VS Code’s password input as a secret still to set, and says how',
    async () => {
      const run = await cli(['import', vscodeFile])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain(
        `to set (VS Code password input 'ragKey'): rag-console secrets set ${vscodeServer} ragKey`,
      )
      const unset = await cli(['--json', ...BOB, 'search', 'vpn', '--server', vscodeServer])
      expect(unset.code).toBe(4)
      expect(json(unset)).toMatchObject({ servers: [{ error: { code: 'action_required' } }] })
      expect((await cli(['secrets', 'set', vscodeServer, 'ragKey'], KEY)).code).toBe(0)
      const search = await cli(['--json', ...BOB, 'search', 'vpn', '--server', vscodeServer])
      expect(search.code, search.stderr).toBe(0)
    },
    SEVERAL_RUNS_MS,
  )

  it(
    'imports nothing twice, and refuses a --server the file lacks',
    async () => {
      const again = await cli(['--json', 'import', cursorFile])
      expect(again.code).toBe(1)
      expect(json(again)).toMatchObject({ error: { code: 'invalid_argument' } })
      const unknown = await cli(['--json', 'import', cursorFile, '--server', 'nope'])
      expect(unknown.code).toBe(2)
      expect(json(unknown)).toMatchObject({ error: { code: 'not_found' } })
    },
    SEVERAL_RUNS_MS,
  )
})
