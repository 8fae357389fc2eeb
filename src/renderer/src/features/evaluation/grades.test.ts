import { describe, expect, it } from 'vitest'
import type { GoldenSet } from '#shared/model/evaluation'
import { gradeOfKey, gradesFor, judgedKey, judgedQuery, setIdFor } from './grades'

const set: GoldenSet = {
  version: 1,
  id: 's',
  name: 'S',
  queries: [
    {
      id: 'q1',
      query: 'vpn setup',
      profileId: 'alice',
      judgments: [{ docKey: 'id:a', grade: 1 }],
    },
    {
      id: 'q2',
      query: 'vpn setup',
      judgments: [
        { docKey: 'uri:https://docs.example.com/vpn', grade: 3 },
        { docKey: 'id:b', grade: 0 },
        { docKey: 'uri:https://vault.example.com/d/7', aliases: ['id:vault-7'], grade: 2 },
      ],
    },
  ],
}

describe('judging from Search', () => {
  it('judges a document found by two providers once: signed links to it share one key', () => {
    const a = judgedKey({ id: 'ks-1', uri: 'https://docs.example.com/vpn?sig=abc' })
    const b = judgedKey({ id: 'wiki-9', uri: 'https://docs.example.com/vpn?token=xyz#part' })
    expect(a).toBe(b)
    expect(gradesFor(set, 'vpn setup', 'carol').get(a)).toBe(3)
  })

  it('knows a document by an alias too: a provider that gives it without its link', () => {
    expect(gradesFor(set, 'vpn setup', 'carol').get(judgedKey({ id: 'vault-7' }))).toBe(2)
  })

  it("records into the acting profile's own query, else the one for every profile", () => {
    expect(judgedQuery(set, 'vpn setup', 'alice')?.id).toBe('q1')
    expect(judgedQuery(set, 'vpn setup', 'carol')?.id).toBe('q2')
    expect(gradesFor(set, 'vpn setup', 'carol').get('id:b')).toBe(0)
  })

  it("never records into another user's query", () => {
    const theirs = { ...set, queries: [set.queries[0]!] }
    expect(judgedQuery(theirs, 'vpn setup', 'carol')).toBeUndefined()
  })

  it('knows no grades for a query the set does not have, or without a set', () => {
    expect(gradesFor(set, 'VPN setup', 'carol').size).toBe(0)
    expect(gradesFor(undefined, 'vpn setup', 'carol').size).toBe(0)
  })

  it('takes the keys 0 to 3 as grades and nothing else', () => {
    expect(['0', '1', '2', '3', '4', 'a', 'Enter'].map(gradeOfKey)).toEqual([
      0,
      1,
      2,
      3,
      undefined,
      undefined,
      undefined,
    ])
  })
})

describe('setIdFor', () => {
  it('makes a file-name safe id from a name, unique among the sets', () => {
    expect(setIdFor('VPN questions (Q3)', new Set())).toBe('vpn-questions-q3')
    expect(setIdFor('VPN questions', new Set(['vpn-questions', 'vpn-questions-2']))).toBe(
      'vpn-questions-3',
    )
  })

  it('falls back to a plain id for a name without letters or digits', () => {
    expect(setIdFor('???', new Set())).toBe('set')
  })
})
