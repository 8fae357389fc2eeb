import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import type { SaveResult } from '#shared/ipc/registry'
import { RegistryStore } from './store'
import { tempDir, writeFile } from '#test/support/files/temp-files'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const entry = (description: string): string =>
  `{\n  "docs": { "url": "http://127.0.0.1:9/docs", "description": "${description}" }\n}\n`

/**
 * Another program editing the file. For a `{path, text, delayMs}` line it waits, writes the file
 * in place (truncate + write, as most editors and scripts do) and answers `wrote`. For a
 * `{path, text, pauseMs}` line it rewrites it the slow way: truncates it, answers `truncated`,
 * waits `pauseMs` of its own, writes the text through the same descriptor and answers `wrote`.
 */
const WRITER = `
const { closeSync, ftruncateSync, openSync, writeFileSync, writeSync } = require('node:fs')
const say = (word) => process.stdout.write(word + '\\n')
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { path, text, delayMs, pauseMs } = JSON.parse(line)
  if (pauseMs !== undefined) {
    const fd = openSync(path, 'r+')
    ftruncateSync(fd, 0)
    say('truncated')
    return setTimeout(() => {
      writeSync(fd, text, 0)
      closeSync(fd)
      say('wrote')
    }, pauseMs)
  }
  const until = performance.now() + delayMs
  const write = () => {
    if (performance.now() < until) return setImmediate(write)
    writeFileSync(path, text)
    say('wrote')
  }
  write()
})
say('ready')
`

interface Writer {
  write: (path: string, text: string, delayMs: number) => Promise<void>
  rewrite: (
    path: string,
    text: string,
    pauseMs: number,
  ) => { truncated: Promise<void>; wrote: Promise<void> }
}

function startWriter(): Writer {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', WRITER])
  cleanups.push(() => {
    child.kill()
  })
  const waiting: Array<() => void> = []
  createInterface({ input: child.stdout }).on('line', () => waiting.shift()?.())
  const next = (): Promise<void> => new Promise<void>((resolve) => waiting.push(resolve))
  let ready = next()
  const send = (message: object): Promise<void> =>
    ready.then(() => {
      const answered = next()
      child.stdin.write(`${JSON.stringify(message)}\n`)
      return answered
    })
  return {
    write: async (path, text, delayMs) => {
      ready = send({ path, text, delayMs })
      await ready
    },
    rewrite: (path, text, pauseMs) => {
      const truncated = send({ path, text, pauseMs })
      const wrote = truncated.then(next)
      ready = wrote
      return { truncated, wrote }
    },
  }
}

/** Every text the folder keeps: the file, `.bak` and numbered backups. */
function keptTexts(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith('rag-mcp.json'))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
}

/** A store (not watching) on a rag-mcp.json holding `text`, and a writer child for it. */
async function raceOn(
  text: string,
): Promise<{ dir: string; file: string; store: RegistryStore; writer: Writer }> {
  const { dir, cleanup } = tempDir('rc-race-')
  cleanups.push(cleanup)
  const file = writeFile(join(dir, 'rag-mcp.json'), text)
  const store = new RegistryStore({
    lookup: { dataDir: dir, env: {}, configPath: file },
    watch: false,
  })
  cleanups.push(() => store.dispose())
  await store.start()
  return { dir, file, store, writer: startWriter() }
}

describe('save racing an external writer', () => {
  it('never loses the external edit nor the in-app one', async () => {
    const { dir, file, store, writer } = await raceOn(entry('start'))
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

/** Five servers; `note` changes s5's description so each rewrite is a different text. */
const fiveServers = (note: string): string =>
  `${JSON.stringify(
    Object.fromEntries(
      [1, 2, 3, 4, 5].map((n) => [
        `s${n}`,
        { url: `http://127.0.0.1:9/s${n}`, ...(n === 5 ? { description: note } : {}) },
      ]),
    ),
    null,
    2,
  )}\n`

describe('a toggle while another program rewrites the file in place', () => {
  it('never saves over the emptied file nor drops a server', async () => {
    const { file, store, writer } = await raceOn(fiveServers('start'))
    const problems: string[] = []
    for (let i = 0; i < 20; i++) {
      const { truncated, wrote } = writer.rewrite(file, fiveServers(`external ${i}`), 30)
      await truncated
      const enabled = i % 2 === 1
      const [result] = await Promise.all([store.setEnabled('s2', enabled), wrote])
      const onDisk = readFileSync(file, 'utf8')
      const ids = Object.keys(JSON.parse(onDisk) as object)
      if (ids.length !== 5) problems.push(`${i}: ${result.status}, file holds ${ids.join(',')}`)
      if (!onDisk.includes(`external ${i}`)) problems.push(`${i}: the external edit is lost`)
      if (result.status === 'saved' && !onDisk.includes(`"enabled": ${enabled}`)) {
        problems.push(`${i}: saved, but s2 is not ${enabled ? 'enabled' : 'disabled'} on disk`)
      }
    }
    expect(problems).toEqual([])
  })
})
