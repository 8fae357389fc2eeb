import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'vitest'
import { repoRoot } from '../process/built'

/**
 * Test helpers for code that needs the real OS keychain. `scripts/with-keyring.sh` runs a
 * command inside a private D-Bus session with an unlocked gnome-keyring and sets
 * RAG_KEYRING_READY=1; CI also sets RAG_CONSOLE_REQUIRE_KEYRING=1 so a missing keyring fails.
 */

export const keyringReady = process.env.RAG_KEYRING_READY === '1'
const keyringRequired = process.env.RAG_CONSOLE_REQUIRE_KEYRING === '1'

/**
 * `describe` for tests against the real Secret Service. Without one: skipped with a printed
 * reason, or one failing test when RAG_CONSOLE_REQUIRE_KEYRING=1.
 */
export function describeWithKeyring(name: string, body: () => void): void {
  const reason = keyringReady
    ? undefined
    : 'RAG_KEYRING_READY is not set: run under `bash scripts/with-keyring.sh`'
  gatedDescribe(name, reason, body)
}

/**
 * `describe` for tests that start their own private gnome-keyring (so they may lock it): needs
 * `dbus-run-session`, `gnome-keyring-daemon` and `dbus-send` on Linux.
 */
export function describeWithPrivateKeyring(name: string, body: () => void): void {
  const tools = ['dbus-run-session', 'gnome-keyring-daemon', 'dbus-send']
  const missing = tools.filter((tool) => !onPath(tool))
  const reason =
    process.platform !== 'linux'
      ? `a private Secret Service needs Linux (this is ${process.platform})`
      : missing.length > 0
        ? `not installed: ${missing.join(', ')} (Debian: gnome-keyring dbus)`
        : undefined
  gatedDescribe(name, reason, body)
}

function gatedDescribe(name: string, reason: string | undefined, body: () => void): void {
  if (process.env.RAG_CONSOLE_TEST_PROJECT === 'unit') {
    throw new Error(
      `"${name}" uses the keychain: a unit test runs without one; list this test in INTEGRATION (vitest.config.ts)`,
    )
  }
  if (reason === undefined) {
    describe(name, body)
  } else if (keyringRequired) {
    describe(name, () => {
      it('has a Secret Service (RAG_CONSOLE_REQUIRE_KEYRING=1)', () => {
        throw new Error(`keychain tests cannot run: ${reason}`)
      })
    })
  } else {
    console.warn(`skipping keychain tests "${name}": ${reason}`)
    describe.skip(name, body)
  }
}

/** Whether an executable of that name is on PATH. */
export function onPath(tool: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, tool)))
}

/** A server id no other test (or earlier run) uses, so tests never see each other's entries. */
export function uniqueServerId(label: string): string {
  return `test-${label}-${process.pid}-${randomUUID().slice(0, 8)}`
}

export type ProbeMode = 'unavailable' | 'locked'

export interface ProbeResult {
  ok: boolean
  value?: unknown
  error?: { code: string; message: string; server?: string; details?: Record<string, unknown> }
}

/**
 * Runs `keychain-probe.ts` in a child process, where the keychain is really unreachable (a
 * session bus address pointing at nothing) or really locked (a private gnome-keyring whose
 * default collection is locked over D-Bus). Returns its report, keyed by operation.
 */
export async function runKeychainProbe(
  mode: ProbeMode,
  timeoutMs = 30_000,
): Promise<Record<string, ProbeResult>> {
  const probe = join(repoRoot, 'src/test/support/secrets/keychain-probe.ts')
  const node = [
    process.execPath,
    '--input-type=module',
    '-e',
    // Loads the TypeScript probe through Vite's module runner, as Vitest does.
    `const { runnerImport } = await import('vite'); await runnerImport(process.argv[1], { configFile: false, logLevel: 'silent' })`,
    probe,
    mode,
  ]
  const env: NodeJS.ProcessEnv = { ...process.env }
  // No display: an unlock prompt fails at once instead of waiting for a click.
  delete env.DISPLAY
  delete env.WAYLAND_DISPLAY
  delete env.RAG_KEYRING_INNER
  delete env.RAG_KEYRING_READY
  let command: string[]
  if (mode === 'unavailable') {
    env.DBUS_SESSION_BUS_ADDRESS = `unix:path=/nonexistent/rag-console-${randomUUID()}/bus`
    command = node
  } else {
    command = ['bash', join(repoRoot, 'scripts/with-keyring.sh'), ...node]
  }
  const { stdout, stderr, code } = await runBounded(command, env, timeoutMs)
  const line = stdout.split('\n').find((l) => l.startsWith('{"probe"'))
  if (!line) {
    throw new Error(`keychain probe (${mode}) exited ${code} without a report:\n${stderr}`)
  }
  return (JSON.parse(line) as { results: Record<string, ProbeResult> }).results
}

function runBounded(
  [command, ...args]: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    // Own process group: on timeout the whole tree (dbus-daemon, keyring daemon) is killed.
    const child = spawn(command!, args, { cwd: repoRoot, env, detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
      reject(new Error(`keychain probe timed out after ${timeoutMs} ms:\n${stderr}`))
    }, timeoutMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ stdout, stderr, code })
    })
  })
}
