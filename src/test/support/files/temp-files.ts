import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

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

/** `{"a":{"a":…1…}}` nested `depth` objects deep (about 5 bytes a level). */
export function deeplyNested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
}

/** Creates a named pipe (FIFO) at `path`; reading one with no writer blocks forever. */
export function makeFifo(path: string): string {
  execFileSync('mkfifo', [path])
  return path
}
