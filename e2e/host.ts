import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { test as base, type Page } from '@playwright/test'
import { SAFETY_NET_MS } from '#test/support/process/limits'
import { startPrivateKeyring } from './keyring'

export const root = resolve(import.meta.dirname, '..')

export interface RunningHost {
  url: string
  dataDir: string
  process: ChildProcess
  output: () => string
  stop: () => Promise<void>
}

/** Starts `out/main/host.js` as the user would (`npm run start:browser`), on a free port. */
export async function launchHost(
  options: { config?: string; dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningHost> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'rc-e2e-'))
  const args = [join(root, 'out/main/host.js'), '--port', '0']
  if (options.config) args.push('--config', options.config)
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, RAG_CONSOLE_HOME: dataDir, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`host did not start:\n${output}`)),
      SAFETY_NET_MS,
    )
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /Open: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolveUrl(match[1]!)
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`host exited with ${code}:\n${output}`))
    })
  })
  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once('exit', () => done())
        child.kill('SIGTERM')
      }),
  }
}

/**
 * Whether specs save screenshots. `RAG_E2E_SCREENSHOTS=off` (set by .ci/run, whose clone nobody
 * opens) skips them: the suite's ~300 PNGs cost a run about 40 s of CPU.
 */
export const SCREENSHOTS = process.env.RAG_E2E_SCREENSHOTS !== 'off'

/** Saves the page as e2e/screenshots/`name`.png, for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: join(root, 'e2e/screenshots', `${name}.png`) })
}

export const test = base.extend<{ host: RunningHost }, { keyring: void }>({
  // Under scripts/with-keyring.sh (npm test), each worker gets a keyring of its own and every
  // host it starts uses it: specs running side by side never see each other's entries.
  keyring: [
    async ({}, use) => {
      if (process.env.RAG_KEYRING_READY !== '1') return use()
      const keyring = await startPrivateKeyring()
      const shared = process.env.DBUS_SESSION_BUS_ADDRESS
      process.env.DBUS_SESSION_BUS_ADDRESS = keyring.address
      await use()
      if (shared === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS
      else process.env.DBUS_SESSION_BUS_ADDRESS = shared
      await keyring.stop()
    },
    { scope: 'worker', auto: true },
  ],
  host: async ({}, use) => {
    const host = await launchHost()
    await use(host)
    await host.stop()
  },
})

export { expect } from '@playwright/test'
