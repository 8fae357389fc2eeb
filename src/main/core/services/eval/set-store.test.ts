import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { GoldenSet } from '#shared/model/evaluation'
import { createRedactor } from '../../secrets/redactor'
import { GoldenSetStore } from './set-store'

const SET: GoldenSet = {
  version: 1,
  id: 'faq',
  name: 'FAQ',
  queries: [{ id: 'q1', query: 'alpha', judgments: [{ docKey: 'id:d1', grade: 2 }] }],
}

describe('GoldenSetStore.peek', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  function store(): GoldenSetStore {
    dir = mkdtempSync(join(tmpdir(), 'sets-'))
    return new GoldenSetStore(dir, createRedactor())
  }

  it('parses a set once while its file stays the same', () => {
    const sets = store()
    sets.save(SET)
    const first = sets.peek('faq')
    expect(first).toEqual(sets.get('faq'))
    expect(sets.peek('faq')).toBe(first)
    // get() still gives a set of its own, to change.
    expect(sets.get('faq')).not.toBe(first)
  })

  it('reads the file again once it was saved or edited by hand, even to the same size', () => {
    const sets = store()
    sets.save(SET)
    expect(sets.peek('faq').queries[0]!.query).toBe('alpha')
    sets.judge({ setId: 'faq', queryId: 'q1', query: 'alpha', docKey: 'id:d2', grade: 1 })
    expect(sets.peek('faq').queries[0]!.judgments.map((j) => j.docKey)).toEqual(['id:d1', 'id:d2'])
    const file = join(dir!, 'faq.json')
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, text.replace('"alpha"', '"omega"'))
    // Same size; a later modification time, as an editor's save an instant later would have.
    utimesSync(file, new Date(), new Date(Date.now() + 5_000))
    expect(sets.peek('faq').queries[0]!.query).toBe('omega')
  })

  it('names a missing or deleted set', () => {
    const sets = store()
    expect(() => sets.peek('faq')).toThrow(/no golden set with id faq/)
    sets.save(SET)
    sets.peek('faq')
    sets.delete('faq')
    expect(() => sets.peek('faq')).toThrow(/no golden set with id faq/)
  })
})
