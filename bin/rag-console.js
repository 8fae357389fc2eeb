#!/usr/bin/env node
// The CLI is bundled into out/main/cli.js by `npm run build`.
import { existsSync } from 'node:fs'

const entry = new URL('../out/main/cli.js', import.meta.url)
if (!existsSync(entry)) {
  process.stderr.write('rag-console: not built yet; run `npm run build` in the package folder\n')
  process.exit(2)
}
await import(entry.href)
