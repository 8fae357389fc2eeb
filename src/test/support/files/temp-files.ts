import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { vi } from 'vitest'

/** A fresh temp folder, removed by `cleanup()` (tests call it in afterEach). */
export function tempDir(prefix = 'rc-config-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Writes a file (creating folders) and returns its path. */
export function writeFile(path: string, text: string | Buffer): string {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
  return path
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | undefined,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  return vi.waitFor(
    () => {
      const value = check()
      if (value === undefined)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
      return value
    },
    { timeout: timeoutMs, interval: 10 },
  )
}

/** `{"a":{"a":…1…}}` nested `depth` objects deep (about 5 bytes a level). */
export function deeplyNested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
}

/** Creates a named pipe (FIFO) at `path`; reading one with no writer blocks forever. */
export function makeFifo(path: string): string {
  execFileSync('mkfifo', [path])
  return path
}
