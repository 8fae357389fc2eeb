import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RotatingFile } from './rotating-file'

describe('RotatingFile', () => {
  it('rotates at the size limit and keeps only the newest files', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rc-rot-')), 'x.log')
    const file = new RotatingFile(path, { maxBytes: 10, keep: 2 })
    for (const line of ['aaaa\n', 'bbbb\n', 'cccc\n', 'dddd\n', 'eeee\n', 'ffff\n', 'gggg\n']) {
      file.append(line)
    }
    expect(file.files()).toEqual([path, `${path}.1`, `${path}.2`])
    expect(readFileSync(path, 'utf8')).toBe('gggg\n')
    expect(readFileSync(`${path}.1`, 'utf8')).toBe('eeee\nffff\n')
    expect(readFileSync(`${path}.2`, 'utf8')).toBe('cccc\ndddd\n')
  })

  it('continues the size count of an existing file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rc-rot-')), 'x.log')
    new RotatingFile(path, { maxBytes: 10, keep: 1 }).append('123456789\n')
    const reopened = new RotatingFile(path, { maxBytes: 10, keep: 1 })
    reopened.append('x\n')
    expect(readFileSync(path, 'utf8')).toBe('x\n')
    expect(readFileSync(`${path}.1`, 'utf8')).toBe('123456789\n')
  })

  it('appends several lines in one call into the same files as one call per line', () => {
    const lines = ['aaaa\n', 'bbbb\n', 'cccc\n', 'dddd\n', 'eeee\n', 'ffff\n', 'gggg\n']
    const contents = (batched: boolean): string[] => {
      const path = join(mkdtempSync(join(tmpdir(), 'rc-rot-')), 'x.log')
      const file = new RotatingFile(path, { maxBytes: 12, keep: 2 })
      file.append('torn')
      if (batched) file.appendAll(lines)
      else for (const line of lines) file.append(line)
      return file.files().map((name) => readFileSync(name, 'utf8'))
    }
    expect(contents(true)).toEqual(contents(false))
    expect(contents(false)).toHaveLength(3)
  })
})
