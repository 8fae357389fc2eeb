import { spawn } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createHash } from 'node:crypto'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { crc32 } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAFETY_NET_MS } from '../src/test/support/process/limits'

const root = join(import.meta.dirname, '..')
const realModules = join(root, 'node_modules')

/**
 * A project like a fresh clone: our package.json scripts and ensure-electron.js, and Electron's
 * real npm package (installer included) without its binary. Electron's installer finds its own
 * dependencies through the symlinked scopes.
 */
function freshProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rag-ensure-electron-'))
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  const { prestart, start } = pkg.scripts
  const manifest = {
    name: 'fresh-clone',
    private: true,
    type: 'module',
    scripts: { prestart, start },
  }
  // The script and the Node version check it runs first, as a clone has them.
  for (const file of ['scripts/ensure-electron.js', 'src/main/require-node.js']) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    copyFileSync(join(root, file), join(dir, file))
  }
  writeJson(join(dir, 'package.json'), manifest)
  const electron = join(dir, 'node_modules/electron')
  mkdirSync(electron, { recursive: true })
  for (const file of ['package.json', 'install.js', 'checksums.json', 'index.js', 'cli.js']) {
    copyFileSync(join(realModules, 'electron', file), join(electron, file))
  }
  for (const scope of ['@electron', '@electron-internal']) {
    symlinkSync(join(realModules, scope), join(dir, 'node_modules', scope), 'dir')
  }
  return dir
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2))
}

/** A zip archive of stored (uncompressed) files, enough for Electron's extractor. */
function storedZip(files: Record<string, { text: string; mode: number }>): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, { text, mode }] of Object.entries(files)) {
    const data = Buffer.from(text)
    const fileName = Buffer.from(name)
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(fileName.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(0x0314, 4) // made by Unix: the mode below is honoured
    central.writeUInt16LE(20, 6)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(fileName.length, 28)
    central.writeUInt32LE(((0o100000 | mode) << 16) >>> 0, 38)
    central.writeUInt32LE(offset, 42)
    locals.push(local, fileName, data)
    centrals.push(central, fileName)
    offset += local.length + fileName.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(centrals.length / 2, 8)
  end.writeUInt16LE(centrals.length / 2, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** This process's environment without npm's or Electron's settings (the test sets its own). */
function cleanEnv(): NodeJS.ProcessEnv {
  const clean = { ...process.env }
  for (const key of Object.keys(clean)) {
    if (/^(npm_|electron_)/i.test(key)) delete clean[key]
  }
  return clean
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a command to its end; the deadline only guards against a hang (it fails the test). */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(
        new Error(
          `${command} ${args.join(' ')} still running after ${SAFETY_NET_MS} ms:\n${stderr}`,
        ),
      )
    }, SAFETY_NET_MS)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/**
 * For one describe block: a fresh project, an empty download cache, and a local stand-in for
 * Electron's download site (ELECTRON_MIRROR is Electron's own setting) answering with `handler`.
 */
function withMirror(handler: RequestListener) {
  const requested: string[] = []
  const state = { mirror: undefined as Server | undefined, project: '', cache: '' }
  beforeAll(async () => {
    const mirror = createServer((request, response) => {
      requested.push(request.url ?? '')
      handler(request, response)
    })
    await new Promise<void>((done) => mirror.listen(0, '127.0.0.1', done))
    state.mirror = mirror
    state.project = freshProject()
    state.cache = mkdtempSync(join(tmpdir(), 'rag-electron-cache-'))
  })
  afterAll(async () => {
    await new Promise<void>((done) => state.mirror?.close(() => done()))
    rmSync(state.project, { recursive: true, force: true })
    rmSync(state.cache, { recursive: true, force: true })
  })
  return {
    requested,
    project: () => state.project,
    env: (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
      ...cleanEnv(),
      ELECTRON_MIRROR: `http://127.0.0.1:${(state.mirror!.address() as AddressInfo).port}/`,
      electron_config_cache: state.cache,
      ...extra,
    }),
  }
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

describe('npm start without an Electron binary', () => {
  // A mirror that has no Electron: the download fails at once, on any machine.
  const site = withMirror((_request, response) => response.writeHead(404).end('not here'))

  it('ends in one sentence naming the failed download and the browser host, exit 1', async () => {
    const result = await run('npm', ['start'], site.project(), site.env())
    expect(result.code).not.toBe(0)
    const said = lines(result.stderr)
    expect(said).toHaveLength(1)
    expect(said[0]).toMatch(/^RAG Console cannot start: Electron's binary .*download.*failed/)
    expect(said[0]).toContain('404')
    expect(said[0]).toContain('npm run start:browser')
    expect(result.stderr + result.stdout).not.toMatch(/^\s+at /m)
  })

  it('does not download when ELECTRON_SKIP_BINARY_DOWNLOAD is set, and says so', async () => {
    const before = site.requested.length
    const result = await run(
      process.execPath,
      ['scripts/ensure-electron.js'],
      site.project(),
      site.env({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }),
    )
    expect(result.code).not.toBe(0)
    const said = lines(result.stderr)
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD')
    expect(said[0]).toContain('npm run start:browser')
    expect(site.requested).toHaveLength(before)
  })
})

describe('npm start where Electron can be downloaded', () => {
  const version = (
    JSON.parse(readFileSync(join(realModules, 'electron/package.json'), 'utf8')) as {
      version: string
    }
  ).version
  const artifact = `electron-v${version}-${process.platform}-${process.arch}.zip`
  const zip = storedZip({
    electron: { text: '#!/bin/sh\necho fake electron\n', mode: 0o755 },
    version: { text: `v${version}`, mode: 0o644 },
  })
  const site = withMirror((request, response) => {
    if (request.url?.endsWith(`/${artifact}`)) response.writeHead(200).end(zip)
    else if (request.url?.endsWith('/SHASUMS256.txt')) {
      const sum = createHash('sha256').update(zip).digest('hex')
      response.writeHead(200).end(`${sum} *${artifact}\n`)
    } else response.writeHead(404).end()
  })

  it('installs the binary through Electron’s installer once, then lets start go on', async () => {
    const env = site.env({ electron_use_remote_checksums: '1' })
    const first = await run(process.execPath, ['scripts/ensure-electron.js'], site.project(), env)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const electron = join(site.project(), 'node_modules/electron')
    expect(readFileSync(join(electron, 'path.txt'), 'utf8')).toBe('electron')
    expect(readFileSync(join(electron, 'dist/electron'), 'utf8')).toContain('fake electron')

    const downloads = site.requested.length
    const second = await run(process.execPath, ['scripts/ensure-electron.js'], site.project(), env)
    expect(second).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(site.requested).toHaveLength(downloads)
  })
})
