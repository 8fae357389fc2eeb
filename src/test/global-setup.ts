import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path))
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/**
 * Integration tests run the built entries (demo servers, CLI, host) as child processes, so a
 * missing or stale `out/` would test old code: refuse to start instead.
 */
export default function setup(): void {
  let built: number
  try {
    built = statSync(join(root, 'out/main/host.js')).mtimeMs
  } catch {
    throw new Error('out/ is missing: run `npm run build` before the tests')
  }
  const sources = Math.max(
    ...['src/main', 'src/shared', 'src/demo'].map((dir) => newestMtime(join(root, dir))),
  )
  if (sources > built) {
    throw new Error('out/ is older than src/: run `npm run build` before the tests')
  }
}
