import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import type { SaveResult } from '../../../shared/ipc/registry'
import { RegistryStore } from './store'
import { tempDir, writeFile } from './test-support'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const entry = (description: string): string =>
  `{\n  "docs": { "url": "http://127.0.0.1:9/docs", "description": "${description}" }\n}\n`

/**
 * Another program editing the file: for each `{path, text, delayMs}` line it waits, writes the
 * file in place (truncate + write, as most editors and scripts do) and answers `wrote`.
 */
const WRITER = `
const { writeFileSync } = require('node:fs')
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { path, text, delayMs } = JSON.parse(line)
  const until = performance.now() + delayMs
  const write = () => {
    if (performance.now() < until) return setImmediate(write)
    writeFileSync(path, text)
    process.stdout.write('wrote\\n')
  }
  write()
})
process.stdout.write('ready\\n')
`

function startWriter(): { write: (path: string, text: string, delayMs: number) => Promise<void> } {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', WRITER])
  cleanups.push(() => {
    child.kill()
  })
  const waiting: Array<() => void> = []
  createInterface({ input: child.stdout }).on('line', () => waiting.shift()?.())
  const ready = new Promise<void>((resolve) => waiting.push(resolve))
  return {
    write: async (path, text, delayMs) => {
      await ready
      const done = new Promise<void>((resolve) => waiting.push(resolve))
      child.stdin.write(`${JSON.stringify({ path, text, delayMs })}\n`)
      await done
    },
  }
}

/** Every text the folder keeps: the file, `.bak` and numbered backups. */
function keptTexts(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith('rag-mcp.json'))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
}

describe('save racing an external writer', () => {
  it('never loses the external edit nor the in-app one', async () => {
    const { dir, cleanup } = tempDir('rc-race-')
    cleanups.push(cleanup)
    const file = writeFile(join(dir, 'rag-mcp.json'), entry('start'))
    const store = new RegistryStore({
      lookup: { dataDir: dir, env: {}, configPath: file },
      watch: false,
    })
    cleanups.push(() => store.dispose())
    await store.start()
    const writer = startWriter()
    const lost: string[] = []
    for (let i = 0; i < 200; i++) {
      const raw = await store.readRaw()
      const external = entry(`external ${i}`)
      const mine = entry(`mine ${i}`)
      const [result] = await Promise.all([
        store.save({ text: mine, baseHash: raw.hash }) as Promise<SaveResult>,
        writer.write(file, external, (i % 50) / 10),
      ])
      const kept = keptTexts(dir)
      const reported = result.status === 'conflict' ? [result.diskText] : []
      if (![...kept, ...reported].includes(external)) lost.push(`external ${i}`)
      const onDisk = readFileSync(file, 'utf8')
      const mineKept =
        result.status === 'conflict'
          ? result.proposedText === mine
          : result.status === 'saved' && (onDisk === mine || onDisk === external)
      if (!mineKept) lost.push(`mine ${i} (${result.status})`)
    }
    expect(lost).toEqual([])
  })
})
