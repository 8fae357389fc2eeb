import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MIN_NODE, tooOld } from '../main/require-node.js'
import { builtFile, repoRoot } from './support/process/built'

/**
 * Every entry point run by a Node older than 22.12 (Debian 12's, or this machine's
 * /usr/bin/node): one sentence naming Node 22.12 and where to get it, exit 2, no stack trace.
 */
const OLD_NODE = process.env.RAG_CONSOLE_OLD_NODE ?? '/usr/bin/node'

function oldNodeVersion(): string {
  const run = spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' })
  const version = run.stdout?.trim()
  if (run.status !== 0 || !version || !tooOld(version)) {
    throw new Error(
      `these tests need a Node.js older than ${MIN_NODE}: ${OLD_NODE} is ${version || 'missing'}. Install Debian's nodejs (apt-get install nodejs) or set RAG_CONSOLE_OLD_NODE to one`,
    )
  }
  return version
}

const version = oldNodeVersion()
// A folder whose `node` is the old one, first on PATH: what npm scripts and `#!/usr/bin/env node`
// find on such a machine.
const bin = mkdtempSync(join(tmpdir(), 'rc-old-node-'))
symlinkSync(OLD_NODE, join(bin, 'node'))
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, RAG_CONSOLE_HOME: bin }

afterAll(() => rmSync(bin, { recursive: true, force: true }))

function expectRefused(command: string, args: string[], program: string): void {
  const run = spawnSync(command, args, { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 })
  const sentence = `${program} needs Node.js 22.12 or newer and this is Node.js ${version.slice(1)}`
  const lines = run.stderr.split('\n').filter((line) => line.includes('Node.js'))
  expect(lines, run.stderr).toEqual([expect.stringContaining(sentence)])
  expect(lines[0]).toContain('https://nodejs.org')
  expect(run.stderr).not.toMatch(/^\s+at /m)
  expect(run.status, run.stderr).toBe(2)
}

describe(`on Node ${version}`, () => {
  it('rag-console --help (the bin) says which Node it needs and exits 2', () => {
    expectRefused(OLD_NODE, [join(repoRoot, 'bin/rag-console.js'), '--help'], 'rag-console')
  })

  it('node out/main/cli.js says so before any module that needs Node 22 loads', () => {
    expectRefused(OLD_NODE, [builtFile('main/cli.js'), 'servers'], 'rag-console')
  })

  it('node out/main/host.js says so', () => {
    expectRefused(
      OLD_NODE,
      [builtFile('main/host.js'), '--port', '0'],
      'RAG Console (browser host)',
    )
  })

  it('npm start says so before installing or starting Electron', () => {
    expectRefused('npm', ['start', '--silent'], 'RAG Console')
  })

  it('npm run start:browser says so before building', () => {
    expectRefused('npm', ['run', 'start:browser', '--silent'], 'RAG Console')
  })
})

describe('tooOld', () => {
  it('compares versions part by part', () => {
    expect(tooOld('v20.20.2')).toBe(true)
    expect(tooOld('22.11.9')).toBe(true)
    expect(tooOld('22.12.0')).toBe(false)
    expect(tooOld('v23.0.0')).toBe(false)
    expect(tooOld('100.0.0')).toBe(false)
  })
})
