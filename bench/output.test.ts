import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { outputFiles, parseOnly, profileLink } from './output'

const ROOT = '/repo'

describe('outputFiles', () => {
  it('writes a full run of every benchmark to the committed RESULTS.md', () => {
    expect(outputFiles(ROOT, { quick: false })).toEqual({
      dir: '/repo/bench',
      markdown: '/repo/bench/RESULTS.md',
      json: '/repo/bench/results.json',
    })
  })

  it('writes a partial run beside RESULTS.md, named by the benchmarks it ran, never over it', () => {
    expect(outputFiles(ROOT, { quick: false, only: ['pool', 'scale'] })).toEqual({
      dir: '/repo/bench',
      markdown: '/repo/bench/RESULTS.only-pool-scale.md',
      json: '/repo/bench/results.only-pool-scale.json',
    })
  })

  it('keeps quick runs under out/, partial ones named too', () => {
    expect(outputFiles(ROOT, { quick: true }).markdown).toBe('/repo/out/bench-quick/RESULTS.md')
    expect(outputFiles(ROOT, { quick: true, only: ['pool'] }).markdown).toBe(
      '/repo/out/bench-quick/RESULTS.only-pool.md',
    )
  })
})

describe('parseOnly', () => {
  const known = ['pool', 'scale', 'memory']

  it('keeps the named benchmarks once each, in the order given', () => {
    expect(parseOnly('scale,pool,scale', known)).toEqual(['scale', 'pool'])
    expect(parseOnly(undefined, known)).toBeUndefined()
  })

  it('refuses a name no benchmark has, listing the known ones', () => {
    expect(() => parseOnly('pool,../x', known)).toThrow(
      /unknown benchmark \.\.\/x; known: pool, scale, memory/,
    )
    expect(() => parseOnly('', known)).toThrow(/names no benchmark/)
  })
})

describe('profileLink', () => {
  it('links bench/PROFILE.md from where the report is written, instead of copying it in', () => {
    expect(profileLink(ROOT, outputFiles(ROOT, { quick: false }))).toBe(
      'Where the time goes, and how to profile it: [bench/PROFILE.md](PROFILE.md).',
    )
    expect(profileLink(ROOT, outputFiles(ROOT, { quick: true }))).toBe(
      'Where the time goes, and how to profile it: [bench/PROFILE.md](../../bench/PROFILE.md).',
    )
  })

  it('points at the file that is there, from the committed RESULTS.md', () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
    const files = outputFiles(root, { quick: false })
    const target = /\]\((.+)\)\.$/.exec(profileLink(root, files))?.[1]
    expect(target && existsSync(resolve(files.dir, target))).toBe(true)
  })
})
