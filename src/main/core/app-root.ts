import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cached: string | undefined

/**
 * The folder holding the app's package.json (and `resources/`, `out/`), found by walking up
 * from this module: the same answer from the bundle in `out/main/` and from `src/` under test.
 */
export function appRoot(): string {
  if (cached) return cached
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      try {
        if (
          (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name ===
          'rag-mcp-console'
        ) {
          return (cached = dir)
        }
      } catch {
        // not ours; keep walking
      }
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('cannot find the rag-mcp-console package root')
    dir = parent
  }
}
