import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { eventually } from './support/demo/programs'
import { cliHome, writeRegistry } from './support/cli/run-cli'
import { freePort } from './support/pool/helpers'
import { onPath } from './support/secrets/keyring'
import { fixtureEntry } from './support/core/live'
import { builtFile, repoRoot } from './support/process/built'
import { eachLine } from './support/process/start-child'

/**
 * The service recipes of the operations pack, run rather than read: the systemd unit passes
 * `systemd-analyze verify`, and the command lines of its ExecStart / ExecReload and of the
 * Dockerfile's ENTRYPOINT, CMD and HEALTHCHECK run the built CLI as written (only the install
 * paths, the port and the period swapped for the test's). The image itself cannot be built here:
 * there is no Docker engine on these machines.
 */
const PACK = join(repoRoot, 'resources', 'monitoring')
const UNIT = join(PACK, 'rag-console-monitor.service')
const DOCKERFILE = join(PACK, 'Dockerfile')
const INSTALLED_CLI = '/opt/rag-console/out/main/cli.js'
const CONFIG = '/etc/rag-console/rag-mcp.json'

let home: string
let child: ChildProcess | undefined

afterEach(() => {
  if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  child = undefined
  if (home) rmSync(home, { recursive: true, force: true })
})

/** The recipe's command with this test's CLI, registry, port and a short period. */
function localized(argv: string[], port: number, config: string): string[] {
  return argv.map((arg, i) => {
    if (arg === INSTALLED_CLI) return builtFile('main/cli.js')
    if (arg === CONFIG) return config
    if (argv[i - 1] === '--metrics-port') return String(port)
    if (argv[i - 1] === '--interval') return '300ms'
    return arg
  })
}

/** Starts a recipe's command; its stdout lines are collected. */
function run(
  argv: string[],
  env: NodeJS.ProcessEnv,
): { lines: string[]; exit: Promise<number | null> } {
  const [command, ...args] = argv
  const started = spawn(command === 'node' ? process.execPath : command!, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  child = started
  const lines: string[] = []
  eachLine(started.stdout!, (line) => lines.push(line))
  const exit = new Promise<number | null>((resolve) =>
    started.once('close', (code) => resolve(code)),
  )
  return { lines, exit }
}

const status = (url: string): Promise<number> =>
  fetch(url).then(
    (r) => r.status,
    () => 0,
  )

/** A registry of one demo fixture server, and a data folder, for a recipe to run with. */
function setUp(): string {
  home = cliHome()
  return writeRegistry(home, { kb: fixtureEntry(['--name', 'kb']) })
}

/** `Key=value` lines of a unit's [Service] section (the last value of a key wins). */
function serviceKeys(unit: string): Record<string, string> {
  const section = unit.split(/^\[Service\]$/m)[1]!.split(/^\[/m)[0]!
  return Object.fromEntries(
    [...section.matchAll(/^(\w+)=(.*)$/gm)].map(([, key, value]) => [key!, value!]),
  )
}

it.skipIf(!onPath('systemd-analyze'))(
  'the systemd unit passes systemd-analyze verify (skipped where systemd-analyze is not installed)',
  () => {
    const verify = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8' })
    expect(verify.stderr + verify.stdout).toBe('')
    expect(verify.status).toBe(0)
  },
)

it('the unit runs: ready on /readyz, ExecReload re-reads the registry, stop drains and exits 0', async () => {
  const config = setUp()
  const service = serviceKeys(readFileSync(UNIT, 'utf8'))
  expect(service).toMatchObject({
    DynamicUser: 'yes',
    KillSignal: 'SIGTERM',
    Restart: 'on-failure',
  })
  const argv = service.ExecStart!.split(' ')
  expect(argv.slice(0, 3)).toEqual(['/usr/bin/env', 'node', INSTALLED_CLI])
  const port = await freePort()
  const monitor = run(localized(argv.slice(1), port, config), { RAG_CONSOLE_HOME: home })
  await eventually(async () =>
    (await status(`http://127.0.0.1:${port}/readyz`)) === 200 ? true : undefined,
  )

  // ExecReload as systemd runs it, with $MAINPID.
  const [kill, ...reload] = service.ExecReload!.replace('$MAINPID', String(child!.pid)).split(' ')
  expect(spawnSync(kill!, reload).status).toBe(0)
  await eventually(async () =>
    monitor.lines.some((l) => l.includes('SIGHUP: registry re-read')) ? true : undefined,
  )
  expect(await status(`http://127.0.0.1:${port}/healthz`)).toBe(200)

  child!.kill(service.KillSignal as NodeJS.Signals)
  expect(await monitor.exit).toBe(0)
})

it('the container runs as a non-root user, and its ENTRYPOINT, CMD and HEALTHCHECK work as written', async () => {
  const config = setUp()
  const dockerfile = readFileSync(DOCKERFILE, 'utf8')
  const final = dockerfile.split(/^FROM /m).at(-1)!
  const instruction = (name: string): string =>
    [...final.matchAll(new RegExp(`^${name} ((?:.*\\\\\\n)*.*)$`, 'gm'))]
      .at(-1)![1]!
      .replace(/\\\n\s*/g, '')
  expect(instruction('USER')).not.toMatch(/^(root|0)(:|$)/)
  expect(final.indexOf('USER ')).toBeLessThan(final.indexOf('ENTRYPOINT '))
  const entrypoint = JSON.parse(instruction('ENTRYPOINT')) as string[]
  const cmd = JSON.parse(instruction('CMD')) as string[]
  expect(cmd).toEqual(expect.arrayContaining(['--metrics-host', '0.0.0.0']))
  const healthcheck = JSON.parse(instruction('HEALTHCHECK').replace(/^.*?CMD /, '')) as string[]
  const port = await freePort()
  const monitor = run(localized([...entrypoint, ...cmd], port, config), { RAG_CONSOLE_HOME: home })
  const healthy = (): boolean => {
    const [command, ...args] = localized(healthcheck, port, config).map((a) =>
      a.replace('9470', String(port)),
    )
    return spawnSync(command === 'node' ? process.execPath : command!, args).status === 0
  }
  await eventually(async () => (healthy() ? true : undefined))
  await eventually(async () =>
    (await status(`http://127.0.0.1:${port}/readyz`)) === 200 ? true : undefined,
  )
  expect(instruction('STOPSIGNAL')).toBe('SIGTERM')
  child!.kill('SIGTERM')
  expect(await monitor.exit).toBe(0)
  expect(healthy()).toBe(false)
})
