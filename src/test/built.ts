import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** The repository root, for tests. */
export const repoRoot = resolve(import.meta.dirname, '../..')

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path))
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

let checked = false

/**
 * Absolute path of a built file under `out/` (e.g. `main/demo.js`) for tests that run it as a
 * child process. Refuses a missing or stale build, which would test old code.
 */
export function builtFile(relative: string): string {
  const file = join(repoRoot, 'out', relative)
  let built: number
  try {
    built = statSync(file).mtimeMs
  } catch {
    throw new Error(`out/${relative} is missing: run \`npm run build\` before these tests`)
  }
  if (!checked) {
    const sources = Math.max(
      ...['src/main', 'src/shared', 'src/demo', 'src/preload', 'src/renderer'].map((dir) =>
        newestMtime(join(repoRoot, dir)),
      ),
    )
    if (sources > built) {
      throw new Error('out/ is older than src/: run `npm run build` before these tests')
    }
    checked = true
  }
  return file
}
