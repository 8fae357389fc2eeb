import { rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { spawn, type ChildProcess } from 'node:child_process'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { builtFile } from '#test/support/process/built'
import {
  cliEnv,
  cliHome,
  collectJsonLines,
  spawnCli,
  writeRegistry,
} from '#test/support/cli/run-cli'
import { SAFETY_NET_MS } from '#test/support/process/limits'

/** `watch` against real file writes: one JSON line per registry event and status change. */

const STDIO_SERVER = fileURLToPath(
  new URL('../../../test/fixtures/pool/stdio-server.mjs', import.meta.url),
)
const stdioEntry = { command: process.execPath, args: [STDIO_SERVER] }

let home: string
let child: ChildProcess | undefined
let lines: Record<string, unknown>[]
let stderr: string

beforeEach(() => {
  home = cliHome()
  lines = []
  stderr = ''
})

afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }
  child = undefined
  rmSync(home, { recursive: true, force: true })
})

function watch(config: string): void {
  child = spawnCli(['--json', '--config', config, 'watch'], cliEnv(home))
  collectJsonLines(child.stdout!, lines)
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
}

/** Polls the printed lines until one matches, failing with everything printed past the deadline. */
function nextLine(
  match: (line: Record<string, unknown>) => boolean,
  after = 0,
  timeoutMs = SAFETY_NET_MS,
): Promise<Record<string, unknown>> {
  return vi.waitFor(
    () => {
      const found = lines.slice(after).find(match)
      if (found) return found
      throw new Error(
        `no such line within ${timeoutMs} ms:\n${lines.map((l) => JSON.stringify(l)).join('\n')}\n${stderr}`,
      )
    },
    { timeout: timeoutMs, interval: 25 },
  )
}

it('prints loaded, then reloaded, invalid and reloaded again as the file changes', async () => {
  const config = writeRegistry(home, { first: stdioEntry })
  watch(config)
  const loaded = await nextLine((l) => l.event === 'loaded')
  expect(loaded).toMatchObject({ servers: ['first'] })
  await nextLine((l) => l.event === 'status' && l.server === 'first' && l.status === 'ready')

  let mark = lines.length
  writeRegistry(home, { first: stdioEntry, second: { ...stdioEntry, enabled: false } })
  const reloaded = await nextLine((l) => l.event === 'reloaded', mark)
  expect(reloaded).toEqual({
    event: 'reloaded',
    added: ['second'],
    removed: [],
    changed: [],
    unchanged: ['first'],
    durationMs: expect.any(Number),
  })

  mark = lines.length
  writeFileSync(config, '{\n  "first": {\n    "transport": "carrier-pigeon"\n  }\n}\n')
  const invalid = await nextLine((l) => l.event === 'invalid', mark)
  const diagnostics = invalid.diagnostics as Record<string, unknown>[]
  expect(diagnostics[0]).toMatchObject({
    path: 'first.transport',
    line: 3,
    column: expect.any(Number),
    message: expect.any(String),
  })

  mark = lines.length
  writeRegistry(home, { first: stdioEntry })
  const fixed = await nextLine((l) => l.event === 'reloaded', mark)
  expect(fixed).toMatchObject({ removed: ['second'], unchanged: ['first'] })
  // The connection of the unchanged server was kept through all of it.
  expect(lines.filter((l) => l.event === 'status' && l.status === 'ready')).toHaveLength(1)

  const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve))
  child!.kill('SIGTERM')
  expect(await exited).toBe(0)
})

it('reports an invalid file at start and keeps watching until it is fixed', async () => {
  const config = writeRegistry(home, {})
  writeFileSync(config, '{ "broken": ')
  watch(config)
  const invalid = await nextLine((l) => l.event === 'invalid')
  expect((invalid.diagnostics as unknown[]).length).toBeGreaterThan(0)
  writeRegistry(home, { later: { ...stdioEntry, enabled: false } })
  const reloaded = await nextLine((l) => l.event === 'reloaded')
  expect(reloaded).toMatchObject({ added: ['later'] })
})

it('ends quietly with exit 0 once the reader is gone (| head -n 1)', async () => {
  const disabled = (description: string) => ({
    first: { ...stdioEntry, enabled: false, description },
  })
  const config = writeRegistry(home, disabled('start'))
  const script = `"$NODE" "$CLI" --json --config "$CONFIG" watch | head -n 1; exit "\${PIPESTATUS[0]}"`
  const env = cliEnv(home, {
    NODE: process.execPath,
    CLI: builtFile('main/cli.js'),
    CONFIG: config,
  })
  // Its own process group, so a failing run can be ended whole (the shell, the CLI, head).
  const pipeline = spawn('bash', ['-c', script], { env, detached: true })
  let out = ''
  pipeline.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  pipeline.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => pipeline.once('exit', resolve))
  let code: number | null | undefined
  try {
    // head prints the first line and leaves; the watch learns it on its next line, which each
    // edit of the file brings.
    for (let edit = 0; code === undefined; edit++) {
      if (edit > 60) throw new Error(`watch still running after head left:\n${out}\n${stderr}`)
      if (out.includes('\n')) writeRegistry(home, disabled(`edit ${edit}`))
      code = await Promise.race([
        exited,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200)),
      ])
    }
  } finally {
    if (code === undefined) process.kill(-pipeline.pid!, 'SIGKILL')
  }
  expect(code).toBe(0)
  expect(JSON.parse(out)).toMatchObject({ event: 'loaded', servers: ['first'] })
  expect(stderr).not.toMatch(/EPIPE|Unhandled|Error/)
})
