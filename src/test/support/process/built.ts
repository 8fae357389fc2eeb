import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** The repository root, for tests. */
export const repoRoot = resolve(import.meta.dirname, '../../../..')

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path))
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/** Newest change to the sources the build reads. */
const newestSource = (): number =>
  Math.max(
    ...['src/main', 'src/shared', 'src/demo', 'src/preload', 'src/renderer'].map((dir) =>
      newestMtime(join(repoRoot, dir)),
    ),
  )

/** Why `out/` cannot be trusted (missing, or older than src/ as `entry` shows), else undefined. */
export function staleBuild(entry = 'main/index.js'): string | undefined {
  let built: number
  try {
    built = statSync(join(repoRoot, 'out', entry)).mtimeMs
  } catch {
    return `out/${entry} is missing`
  }
  return newestSource() > built ? 'out/ is older than src/' : undefined
}

let checked = false

/**
 * Absolute path of a built file under `out/` (e.g. `main/demo.js`) for tests that run it as a
 * child process. Refuses a missing or stale build, which would test old code, and refuses unit
 * tests, which run without a build.
 */
export function builtFile(relative: string): string {
  if (process.env.RAG_CONSOLE_TEST_PROJECT === 'unit') {
    throw new Error(
      `out/${relative}: a unit test runs without a build; list this test in INTEGRATION (vitest.config.ts)`,
    )
  }
  const file = join(repoRoot, 'out', relative)
  let built: number
  try {
    built = statSync(file).mtimeMs
  } catch {
    throw new Error(`out/${relative} is missing: run \`npm run build\` before these tests`)
  }
  if (!checked) {
    if (newestSource() > built) {
      throw new Error('out/ is older than src/: run `npm run build` before these tests')
    }
    checked = true
  }
  return file
}
