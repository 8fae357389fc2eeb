import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultDataDir } from '#core/paths'
import { builtFile, repoRoot } from '#test/support/process/built'

/** Electron names the app (and so its userData folder) after package.json's productName. */
const productName = (
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { productName: string }
).productName

/** Electron's `app.getPath('appData')` per platform, as its documentation gives it. */
const electronAppData: Record<string, (env: NodeJS.ProcessEnv) => string> = {
  linux: (env) => env.XDG_CONFIG_HOME ?? join(env.HOME!, '.config'),
  darwin: (env) => join(env.HOME!, 'Library/Application Support'),
  win32: (env) => env.APPDATA!,
}

describe('the desktop app and rag-console share one data folder', () => {
  const home = mkdtempSync(join(tmpdir(), 'rag-data-dir-'))
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it.each([
    ['linux', { HOME: '/home/ann' }],
    ['linux', { HOME: '/home/ann', XDG_CONFIG_HOME: '/home/ann/xdg' }],
    ['darwin', { HOME: '/Users/ann' }],
    ['win32', { HOME: 'C:/Users/ann', APPDATA: 'C:/Users/ann/AppData/Roaming' }],
  ] as const)('resolves the folder Electron gives the app on %s (%o)', (platform, env) => {
    expect(defaultDataDir(env, platform)).toBe(join(electronAppData[platform]!(env), productName))
  })

  it('is the folder the built CLI reports', () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'xdg'),
    }
    delete env.RAG_CONSOLE_HOME
    delete env.RAG_MCP_CONFIG
    const run = spawnSync(process.execPath, [builtFile('main/cli.js'), 'info', '--json'], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(run.status, run.stderr).toBe(0)
    const expected = join(home, 'xdg', productName)
    expect((JSON.parse(run.stdout) as { dataDir: string }).dataDir).toBe(expected)
    expect(defaultDataDir(env, 'linux')).toBe(expected)
  })
})
