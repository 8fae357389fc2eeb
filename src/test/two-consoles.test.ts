import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliHome, runCli, writeRegistry } from './support/cli/run-cli'
import { waitFor } from './support/process/wait-for'
import { startHostProcess, type HostProcess, type IpcClient } from './support/host/host-process'
import { SAFETY_NET_MS } from './support/process/limits'

/**
 * Consoles on one machine and one data folder — the app (here the browser host) open, a second
 * console beside it, a terminal's CLI — each a real process: a `launch` server is launched once
 * and used by all, never stopped by a console that did not start it; writes to the audit log
 * and settings.json from several processes at once stay whole.
 */

const EVERYTHING = join(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'),
  '../dist/index.js',
)

/** A loopback port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

interface Console {
  host: HostProcess
  ipc: IpcClient
}

describe('a launch server shared by consoles on one data folder', () => {
  let home: string
  let config: string
  const consoles: Console[] = []

  const start = async (): Promise<Console> => {
    const host = await startHostProcess({
      config,
      env: { ...process.env, RAG_CONSOLE_HOME: home },
    })
    const ipc = await host.connect()
    const running = { host, ipc }
    consoles.push(running)
    return running
  }
  const logOf = async ({ ipc }: Console): Promise<string> => {
    const reply = (await ipc.call('pool:log', { server: 'everything' })) as {
      value: { lines: { text: string }[] }
    }
    return reply.value.lines.map((line) => line.text).join('\n')
  }
  const echo = ({ ipc }: Console, message: string) =>
    ipc.call('workbench:call', { server: 'everything', tool: 'echo', arguments: { message } })
  const state = async ({ ipc }: Console): Promise<string | undefined> => {
    const reply = (await ipc.call('pool:status')) as {
      value: { server: string; status: { state: string } }[]
    }
    return reply.value.find((s) => s.server === 'everything')?.status.state
  }
  let owner: Console
  let borrower: Console

  beforeAll(async () => {
    home = cliHome()
    const port = await freePort()
    config = writeRegistry(home, {
      everything: {
        url: `http://127.0.0.1:${port}/mcp`,
        launch: {
          command: process.execPath,
          args: [EVERYTHING, 'streamableHttp'],
          env: { PORT: String(port) },
          readyPattern: 'listening on port',
        },
        timeoutMs: SAFETY_NET_MS,
      },
    })
  })

  afterAll(async () => {
    for (const { host, ipc } of consoles) {
      ipc.close()
      await host.stop()
    }
    rmSync(home, { recursive: true, force: true })
  })

  it('is launched once when two consoles start together, and both use it', async () => {
    const [a, b] = await Promise.all([start(), start()])
    // As a page does: each host connects its servers once a page has asked for them.
    await Promise.all([a!.ipc.call('servers:list'), b!.ipc.call('servers:list')])
    await waitFor(
      async () => (await state(a!)) === 'ready' && (await state(b!)) === 'ready',
      'both consoles to have the server ready',
    )
    const logs = await Promise.all([logOf(a!), logOf(b!)])
    const launched = logs.filter((log) => /^launching /m.test(log))
    expect(launched, logs.join('\n---\n')).toHaveLength(1)
    owner = /^launching /m.test(logs[0]!) ? a! : b!
    borrower = owner === a ? b! : a!
    expect(await logOf(borrower)).toMatch(/already answers at .*using it, not launching/)
    expect(await echo(borrower, 'from the second console')).toMatchObject({
      ok: true,
      value: { isError: false },
    })
  })

  it('is used by a terminal’s CLI run, which leaves it running when it ends', async () => {
    const run = await runCli(
      [
        '--config',
        config,
        '--json',
        'call',
        '--server',
        'everything',
        '--tool',
        'echo',
        '--args',
        '{"message":"from the terminal"}',
      ],
      home,
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('from the terminal')
    // The CLI has exited; the server it did not start still answers both consoles.
    for (const console of [owner, borrower]) {
      expect(await echo(console, 'still there')).toMatchObject({ ok: true })
    }
  })

  it('is launched again by a console still using it once the one that started it stops', async () => {
    consoles.splice(consoles.indexOf(owner), 1)
    owner.ipc.close()
    await owner.host.stop()
    await waitFor(
      async () => (await echo(borrower, 'again')).ok,
      'the remaining console to launch the server again',
    )
    expect(await logOf(borrower)).toMatch(/^launching /m)
  })
})

/** One child process writing to the data folder as a console does, through jiti. */
function writer(script: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const { createJiti } = require('jiti')
       const jiti = createJiti(${JSON.stringify(__filename)})
       ${script}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })))
}

describe('writes from several processes to one data folder', () => {
  const WRITERS = 4
  let dir: string

  beforeAll(() => {
    dir = cliHome()
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('keep every audit line whole and none lost, through rotations', async () => {
    const LINES = 400
    const runs = await Promise.all(
      Array.from({ length: WRITERS }, (_, w) =>
        writer(`
          Promise.all([jiti.import('../main/core/services/audit.ts'), jiti.import('../main/core/secrets/redactor.ts')])
            .then(async ([{ AuditLog }, { createRedactor }]) => {
              // Small files, many kept: the writers rotate the log under each other.
              const log = new AuditLog(${JSON.stringify(join(dir, 'audit'))}, createRedactor(), {
                maxBytes: 4 * 1024, keep: 1000, onWriteError: (error) => { throw error },
              })
              for (let n = 0; n < ${LINES}; n++) {
                log.record({ at: new Date().toISOString(), user: 'w${w}', server: 'line-' + n,
                  operation: 'search', outcome: 'ok', latencyMs: n })
                if (n % 7 === 0) await new Promise((resolve) => setImmediate(resolve))
              }
              log.flush()
            })
            .catch((error) => { console.error(error); process.exit(1) })`),
      ),
    )
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    const files = readdirSync(join(dir, 'audit')).map((name) =>
      readFileSync(join(dir, 'audit', name), 'utf8'),
    )
    expect(files.length).toBeGreaterThan(2)
    const lines = files.flatMap((text) => text.split('\n').filter(Boolean))
    const torn = lines.filter((line) => {
      try {
        JSON.parse(line)
        return false
      } catch {
        return true
      }
    })
    expect(torn).toEqual([])
    const seen = new Set(
      lines.map((line) => {
        const entry = JSON.parse(line) as { user: string; server: string }
        return `${entry.user} ${entry.server}`
      }),
    )
    expect(lines).toHaveLength(WRITERS * LINES)
    expect(seen.size).toBe(WRITERS * LINES)
  })

  it('keep settings.json whole for every reader, with every process’s change in it', async () => {
    const SAVES = 40
    const file = join(dir, 'settings.json')
    let reads = 0
    let torn = 0
    let writing = true
    // A reader in this process, as another console reads the file while they write.
    const reader = (async () => {
      while (writing) {
        try {
          JSON.parse(readFileSync(file, 'utf8'))
          reads += 1
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') torn += 1
        }
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const runs = await Promise.all(
      Array.from({ length: WRITERS }, (_, w) =>
        writer(`
          jiti.import('../main/core/services/settings.ts').then(({ SettingsStore }) => {
            const store = new SettingsStore(${JSON.stringify(file)})
            for (let n = 0; n < ${SAVES}; n++) {
              store.saveProfile({ id: 'w${w}-' + n, name: 'writer ${w} #' + n, userId: 'w${w}@example.com',
                sessionTags: [], groups: ['users'] })
            }
          }).catch((error) => { console.error(error); process.exit(1) })`),
      ),
    )
    writing = false
    await reader
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    expect(torn).toBe(0)
    expect(reads).toBeGreaterThan(0)
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { profiles: { id: string }[] }
    const ids = new Set(saved.profiles.map((p) => p.id))
    const missing = Array.from({ length: WRITERS }, (_, w) =>
      Array.from({ length: SAVES }, (_, n) => `w${w}-${n}`),
    )
      .flat()
      .filter((id) => !ids.has(id))
    expect(missing).toEqual([])
  })
})

describe('a settings change made outside a running console', () => {
  let home: string
  let host: HostProcess | undefined
  beforeAll(() => {
    home = cliHome()
  })
  afterAll(async () => {
    await host?.stop()
    rmSync(home, { recursive: true, force: true })
  })

  it('turns the metrics endpoint on and off without a restart', async () => {
    const config = writeRegistry(home, {})
    host = await startHostProcess({ config, env: { ...process.env, RAG_CONSOLE_HOME: home } })
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/metrics`
    const serving = (): Promise<boolean> =>
      fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    // As another console (or a person with an editor) writes it; nothing asks this host.
    const edit = (enabled: boolean): void => {
      const file = join(home, 'settings.json')
      const settings = existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)
        : {
            version: 1,
            profiles: [{ id: 'ops', name: 'Ops', userId: 'ops', sessionTags: [], groups: ['*'] }],
            activeProfileId: 'ops',
            selections: {},
          }
      writeFileSync(file, JSON.stringify({ ...settings, metrics: { enabled, port } }, null, 2))
    }
    expect(await serving()).toBe(false)
    edit(true)
    await expect.poll(serving, { timeout: SAFETY_NET_MS }).toBe(true)
    edit(false)
    await expect.poll(serving, { timeout: SAFETY_NET_MS }).toBe(false)
  })
})
