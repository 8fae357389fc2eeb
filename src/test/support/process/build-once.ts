import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot, staleBuild } from './built'

/**
 * Vitest global setup of the integration project: builds once (`npm run build`) when out/ is
 * missing or older than src/, so the tests run the code as it is. A fresh out/ is left alone.
 */
export default function setup(): void {
  const reason = staleBuild()
  if (reason === undefined) return
  console.log(`${reason}: building once (electron-vite build)`)
  const build = spawnSync(join(repoRoot, 'node_modules/.bin/electron-vite'), ['build'], {
    cwd: repoRoot,
    stdio: 'inherit',
  })
  if (build.status !== 0) throw new Error(`the build failed (exit ${build.status}): see above`)
}
