import { extractAll, listPackage, statFile } from '@electron/asar'
import { spawnSync } from 'node:child_process'
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { Arch, build, Platform, type Configuration } from 'electron-builder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PRELOAD_FILE, RENDERER_DIR } from '#main/paths'
import { builtFile, repoRoot } from './support/process/built'
import { SAFETY_NET_MS } from './support/process/limits'

const quietLogger = { isEnabled: false, add: () => undefined }
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}

describe('packaging configuration', () => {
  it('passes electron-builder’s own validation', async () => {
    const config = await getConfig(repoRoot, null, null)
    await expect(validateConfiguration(config, quietLogger as never)).resolves.toBeUndefined()
    expect(config.linux?.target).toEqual(['AppImage', 'deb'])
    expect(config.mac?.target).toEqual(['dmg'])
    expect(config.win?.target).toEqual(['nsis'])
  })

  it('is checked for real: a misplaced option is refused', async () => {
    const config = await getConfig(repoRoot, null, null)
    const broken = { ...config, linux: { ...config.linux, dmgTitle: 'not here' } }
    await expect(validateConfiguration(broken, quietLogger as never)).rejects.toThrow(
      /configuration\.linux/,
    )
  })
})

/**
 * The real electron-builder packs the app for this platform into a folder (its `dir` target),
 * with a stand-in for Electron's binary (which cannot be downloaded here): a script that runs
 * Node, as Electron does with ELECTRON_RUN_AS_NODE. Everything else is the real package.
 */
describe('the packed app', () => {
  let work: string
  let appDir: string
  let resources: string
  let files: string[]

  beforeAll(async () => {
    builtFile('main/index.js') // refuses a stale build
    work = mkdtempSync(join(tmpdir(), 'rag-pack-'))
    const fakeElectron = join(work, 'electron-dist')
    mkdirSync(fakeElectron)
    writeFileSync(
      join(fakeElectron, 'electron'),
      `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo "only runs as Node" >&2; exit 3; }\n` +
        `exec "${process.execPath}" "$@"\n`,
      { mode: 0o755 },
    )
    writeFileSync(join(fakeElectron, 'version'), pkg.devDependencies.electron!)
    const config: Configuration = {
      electronDist: fakeElectron,
      directories: { output: join(work, 'dist') },
    }
    await build({
      projectDir: repoRoot,
      targets: Platform.LINUX.createTarget('dir', Arch[process.arch as 'x64' | 'arm64']),
      config,
      publish: 'never',
    })
    appDir = join(
      work,
      'dist',
      readdirSync(join(work, 'dist')).find((d) => d.endsWith('unpacked'))!,
    )
    resources = join(appDir, 'resources')
    files = listPackage(join(resources, 'app.asar'), { isPack: false })
    // Packing is the whole app's worth of work (about 20 s of CPU alone): beside a second
    // copy of the suite it took over the usual 180 s.
  }, 10 * SAFETY_NET_MS)

  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('holds the built entries, the runtime resources and nothing from the sources', () => {
    for (const file of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/cli.js',
      '/out/main/host.js',
      '/out/main/demo.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/resources/default-registry.json',
      '/resources/rag-mcp.schema.json',
      '/resources/eval/demo-golden-set.json',
      '/resources/icons/icon.png',
    ]) {
      expect(files).toContain(file)
    }
    expect(files.filter((f) => /^\/(src|e2e|bench|scripts|docs)\//.test(f))).toEqual([])
    expect(files.filter((f) => f.endsWith('.map') || f === '/out/main/bench.js')).toEqual([])
  })

  it('carries every production dependency and no development one', () => {
    const top = new Set(files.map((f) => /^\/node_modules\/((@[^/]+\/)?[^/]+)/.exec(f)?.[1]))
    for (const name of Object.keys(pkg.dependencies)) expect(top).toContain(name)
    for (const name of ['electron', 'react', 'vite', 'electron-builder', 'vitest']) {
      expect(top).not.toContain(name)
    }
  })

  it('keeps the keychain’s native module outside the archive', () => {
    const native = files.filter(
      (f) => f.startsWith('/node_modules/@napi-rs/') && f.endsWith('.node'),
    )
    expect(native.length).toBeGreaterThan(0)
    for (const file of native) {
      expect(statFile(join(resources, 'app.asar'), file.slice(1), false)).toMatchObject({
        unpacked: true,
      })
      accessSync(join(resources, 'app.asar.unpacked', file), constants.R_OK)
    }
  })

  it('runs the shipped CLI with the app’s executable, finding its registry inside the package', () => {
    const cli = join(resources, 'bin', 'rag-console')
    accessSync(cli, constants.X_OK)
    // Plain Node cannot read an archive: unpack it into a folder of the same name, the layout
    // Electron presents to the code inside.
    const archive = join(resources, 'app.asar')
    extractAll(archive, join(work, 'extracted'))
    renameSync(archive, join(work, 'app.asar.packed'))
    renameSync(join(work, 'extracted'), archive)

    const home = join(work, 'home')
    const env: NodeJS.ProcessEnv = { ...process.env, RAG_CONSOLE_HOME: home }
    delete env.RAG_MCP_CONFIG
    const run = spawnSync(cli, ['info', '--json'], {
      env,
      encoding: 'utf8',
      timeout: SAFETY_NET_MS,
    })
    expect(run.status, run.stderr).toBe(0)
    const info = JSON.parse(run.stdout) as { dataDir: string; registry: { kind: string } }
    expect(info).toMatchObject({ dataDir: home, registry: { kind: 'embedded' } })
    expect(run.stderr).not.toMatch(/embedded default registry is missing/)

    // What the Electron main process resolves from out/main/ inside the archive.
    const main = join(archive, 'out', 'main')
    accessSync(join(main, PRELOAD_FILE), constants.R_OK)
    accessSync(join(main, RENDERER_DIR, 'index.html'), constants.R_OK)
  })
})
