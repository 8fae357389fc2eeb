import { describe, expect, it } from 'vitest'
import {
  goldenSetFrom,
  importFailure,
  nameFromFile,
  newSetProblem,
  setFileField,
  skippedNotice,
} from './set-import'

const idFor = (name: string): string => `${name.toLowerCase()}-new`

describe('nameFromFile', () => {
  it('drops the extensions golden sets and TREC files come with', () => {
    expect(nameFromFile('support.json')).toBe('support')
    expect(nameFromFile('robust04.qrels')).toBe('robust04')
    expect(nameFromFile('topics.v2.TXT')).toBe('topics.v2')
    expect(nameFromFile('notes.md')).toBe('notes.md')
  })
})

describe('goldenSetFrom', () => {
  it('keeps the file’s own id when it is free, and takes the name typed', () => {
    const read = goldenSetFrom(
      { name: 'a.json', text: '{"version":1,"id":"support","name":"Old","queries":[]}' },
      'Support',
      idFor,
      new Set(['other']),
    )
    expect(read).toEqual({ set: { version: 1, id: 'support', name: 'Support', queries: [] } })
  })

  it('never replaces a set: a taken or missing id gets a new one', () => {
    const taken = goldenSetFrom(
      { name: 'a.json', text: '{"version":1,"id":"support","queries":[]}' },
      'Support',
      idFor,
      new Set(['support']),
    )
    expect(taken).toMatchObject({ set: { id: 'support-new' } })
    const missing = goldenSetFrom({ name: 'a.json', text: '{"queries":[]}' }, 'X', idFor, new Set())
    expect(missing).toMatchObject({ set: { id: 'x-new' } })
  })

  it('says what is wrong with a file that is not a set object', () => {
    expect(goldenSetFrom({ name: 'a.json', text: '{oops' }, 'A', idFor, new Set())).toEqual({
      error: expect.stringMatching(/^a\.json is not JSON: /),
    })
    for (const text of ['[]', 'null', '"set"', '3']) {
      expect(goldenSetFrom({ name: 'b.json', text }, 'B', idFor, new Set())).toEqual({
        error: 'b.json is not a golden set: it must hold one JSON object',
      })
    }
  })
})

describe('skippedNotice', () => {
  it('names the lines that could not be read, in words that agree with the number', () => {
    expect(skippedNotice(1, 'tiny.qrels', [3])).toEqual({
      message: 'Line 3 of tiny.qrels could not be read and was skipped.',
    })
    expect(skippedNotice(3, 'a.qrels', [2, 7, 9])).toEqual({
      message: 'Lines 2, 7, 9 of a.qrels could not be read and were skipped.',
    })
    const many = Array.from({ length: 20 }, (_, i) => i + 1)
    expect(skippedNotice(50, 'a.qrels', many).message).toBe(
      'Lines 1, 2, 3, 4, 5 and 45 more of a.qrels could not be read and were skipped.',
    )
  })

  it('says how many entries were left out besides the unreadable lines', () => {
    expect(skippedNotice(4, 'a.qrels', [3])).toEqual({
      message: 'Line 3 of a.qrels could not be read and was skipped.',
      detail: '4 entries were left out in all; the others are for queries the set has no text for.',
    })
    expect(skippedNotice(2, 'a.qrels')).toEqual({ message: '2 entries of a.qrels were left out.' })
  })
})

describe('newSetProblem', () => {
  const file = { name: 'a.json', text: '{}' }

  it('asks for a name first, blank counting as none', () => {
    expect(newSetProblem('  ', 'json', undefined)).toEqual({ name: 'Give the set a name.' })
    expect(newSetProblem('', 'empty', undefined)).toEqual({ name: 'Give the set a name.' })
  })

  it('asks for the file a set is read from, and for none for an empty set', () => {
    expect(newSetProblem('S', 'qrels', undefined)).toEqual({
      file: 'Choose the file to read the set from.',
    })
    expect(newSetProblem('S', 'json', file)).toBeUndefined()
    expect(newSetProblem('S', 'empty', undefined)).toBeUndefined()
  })
})

describe('importFailure', () => {
  it('drops the IPC channel from a refused request and keeps other messages whole', () => {
    expect(importFailure('eval:set:save: invalid request: queries.0.id: Required')).toBe(
      'queries.0.id: Required',
    )
    expect(importFailure('eval:import-trec: invalid request: text: too long')).toBe(
      'text: too long',
    )
    expect(importFailure('The data folder is read-only')).toBe('The data folder is read-only')
  })
})

describe('setFileField', () => {
  it('offers JSON for a golden set file and text files for qrels', () => {
    expect(setFileField('json')).toEqual({
      label: 'Golden set file',
      accept: '.json,application/json',
    })
    expect(setFileField('qrels').label).toBe('Qrels file')
    expect(setFileField('qrels').accept).toContain('.qrels')
  })
})
