#!/usr/bin/env node
// Runs before `npm start` / `npm run dev`: refuses a Node older than 22.12 in one sentence
// (src/main/require-node.js), then installs Electron's binary when it is missing, with
// Electron's own installer (node_modules/electron/install.js, which honours ELECTRON_MIRROR,
// electron_config_cache and the other @electron/get settings). Electron 45 installs nothing
// during `npm install`, and electron-vite needs the binary. When the download is impossible the
// run ends in one sentence pointing at the browser host, exit 1, no stack trace.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { requireNode } from '../src/main/require-node.js'

requireNode('RAG Console')

const BROWSER_HINT = '`npm run start:browser` runs the same app in your browser'

function fail(what) {
  process.stderr.write(`RAG Console cannot start: ${what}; ${BROWSER_HINT}.\n`)
  process.exit(1)
}

/** Electron's package folder, resolved from the project npm runs the script in. */
function electronPackage() {
  try {
    const require = createRequire(join(process.cwd(), 'package.json'))
    return dirname(require.resolve('electron/package.json'))
  } catch {
    return fail('the `electron` package is not installed (run `npm install` first)')
  }
}

function read(file) {
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return null
  }
}

/** The same test as Electron's installer: right version, path.txt, the executable present. */
function installed(dir, version) {
  if (process.env.ELECTRON_EXEC_PATH) return existsSync(process.env.ELECTRON_EXEC_PATH)
  const executable = read(join(dir, 'path.txt'))
  return (
    executable !== null &&
    read(join(dir, 'dist', 'version'))?.replace(/^v/, '') === version &&
    existsSync(join(dir, 'dist', executable))
  )
}

/** The installer's error in a few words: the first line of its stack, without the class name. */
function reason(stderr) {
  const line = stderr.split('\n').find((l) => l.trim() && !/^\s+at /.test(l)) ?? ''
  const text = line.replace(/^\s*(\w*Error|Error)( \[\w+\])?:\s*/, '').trim()
  return text.length > 200 ? `${text.slice(0, 197)}...` : text
}

const dir = electronPackage()
const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))

if (!installed(dir, version)) {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    fail(`Electron's binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set`)
  }
  process.stdout.write(`Downloading Electron ${version} (first start only)...\n`)
  const result = spawnSync(process.execPath, [join(dir, 'install.js')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  })
  if (result.status !== 0 || !installed(dir, version)) {
    const why = reason(result.stderr ?? result.error?.message ?? '')
    fail(`Electron's binary is not installed and its download failed${why ? ` (${why})` : ''}`)
  }
}
