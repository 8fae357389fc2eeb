import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { withFileLock, withFileLockSync } from './file-lock'

const lockIn = (): string => join(mkdtempSync(join(tmpdir(), 'rc-lock-')), 'x.lock')

describe('file lock', () => {
  it('takes over a lock whose process is gone, and removes it when done', async () => {
    const path = lockIn()
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!
    writeFileSync(path, JSON.stringify({ pid: gone, at: Date.now(), token: 'old' }))
    const seen = await withFileLock(path, async () => readFileSync(path, 'utf8'), {
      staleMs: 60_000,
    })
    expect(JSON.parse(seen)).toMatchObject({ pid: process.pid })
    expect(existsSync(path)).toBe(false)
  })

  it('makes a second holder wait until the first is done', async () => {
    const path = lockIn()
    const order: string[] = []
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const first = withFileLock(
      path,
      async () => {
        order.push('first in')
        await held
        order.push('first out')
      },
      { staleMs: 60_000, pollMs: 5 },
    )
    const second = withFileLock(path, async () => void order.push('second'), {
      staleMs: 60_000,
      pollMs: 5,
    })
    await expect.poll(() => order).toEqual(['first in'])
    release()
    await Promise.all([first, second])
    expect(order).toEqual(['first in', 'first out', 'second'])
  })

  it('takes over a lock held past staleMs, synchronously too', () => {
    const path = lockIn()
    writeFileSync(path, JSON.stringify({ pid: process.pid, at: Date.now() - 60_000, token: 't' }))
    expect(withFileLockSync(path, () => 'mine', { staleMs: 1_000 })).toBe('mine')
    expect(existsSync(path)).toBe(false)
  })
})
