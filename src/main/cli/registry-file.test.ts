import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deeplyNested, makeFifo } from '#test/support/files/temp-files'
import { cliHome, json, runCli } from '#test/support/cli/run-cli'

/**
 * `--config` pointing at something that is not a usable registry file: the built CLI ends
 * promptly with exit 3 and says what is wrong, instead of hanging or failing with `internal`.
 */

let home: string
beforeAll(() => {
  home = cliHome()
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

const cases: Array<[string, () => string, RegExp]> = [
  [
    'a file nested 3,000 levels deep',
    () => {
      const path = join(home, 'deep.json')
      writeFileSync(path, deeplyNested(3_000))
      return path
    },
    /nested more than 64 levels/,
  ],
  ['a named pipe', () => makeFifo(join(home, 'fifo.json')), /is a named pipe \(FIFO\), not a file/],
  ['/dev/zero', () => '/dev/zero', /is a device, not a file/],
  [
    'a directory',
    () => {
      const path = join(home, 'folder.json')
      mkdirSync(path)
      return path
    },
    /is a directory, not a file/,
  ],
  [
    'a symlink loop',
    () => {
      symlinkSync(join(home, 'loop-b.json'), join(home, 'loop-a.json'))
      symlinkSync(join(home, 'loop-a.json'), join(home, 'loop-b.json'))
      return join(home, 'loop-a.json')
    },
    /symbolic link loop/,
  ],
  [
    'a file over 5 MB',
    () => {
      const path = join(home, 'huge.json')
      writeFileSync(path, `{"a": {"description": "${'x'.repeat(6 * 1024 * 1024)}"}}`)
      return path
    },
    /at most 5 MB/,
  ],
]

describe('--config at something that is not a registry file', () => {
  for (const [what, make, message] of cases) {
    it(`exits 3 with one clear line for ${what}`, async () => {
      const path = make()
      const text = await runCli(['--config', path, 'servers'], home)
      expect(text.code).toBe(3)
      const lines = text.stderr.trim().split('\n')
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatch(/^rag-console: the registry is invalid .*: 1 error\(s\)/)
      expect(lines[1]).toMatch(message)
      const run = await runCli(['--json', '--config', path, 'servers'], home)
      expect(run.code).toBe(3)
      expect(json(run)).toMatchObject({
        error: { code: 'config' },
        diagnostics: [{ severity: 'error', message: expect.stringMatching(message) }],
      })
    })
  }
})
