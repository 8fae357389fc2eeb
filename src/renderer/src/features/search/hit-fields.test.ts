import { describe, expect, it } from 'vitest'
import type { MergedHit } from '#shared/model/operations'
import { testHit } from '#test/support/model/hits'
import {
  flaggedPlaces,
  formatScore,
  hitFields,
  hitJson,
  hitName,
  placeName,
  placeRank,
} from './hit-fields'

const merged = (over: Partial<MergedHit> = {}): MergedHit => ({
  ...testHit('wiki', 'h1', { score: 0.5 }),
  fusedScore: 0.0325,
  rank: 2,
  foundIn: [
    { server: 'wiki', sourceId: 'hr', hitId: 'h1', rank: 1, score: 0.5 },
    { server: 'docs', hitId: 'd9', rank: 3, suspicious: true },
  ],
  ...over,
})

describe('a score', () => {
  it('shows three decimals, whole numbers from 100 on, and a dash when there is none', () => {
    expect(formatScore(0.87349)).toBe('0.873')
    expect(formatScore(-12.5)).toBe('-12.500')
    expect(formatScore(1234.6)).toBe('1235')
    expect(formatScore(-100)).toBe('-100')
    expect(formatScore(undefined)).toBe('–')
  })
})

describe('the inspector’s fields', () => {
  it('always names the server and id; leaves out what the hit lacks', () => {
    expect(hitFields(testHit('wiki', 'h1'))).toEqual([
      { name: 'Server', text: 'wiki', code: 'plain' },
      { name: 'Id', text: 'h1', code: 'plain' },
    ])
    const blank = testHit('wiki', 'h1', { sourceId: '', uri: '', fileName: '', timestamp: '' })
    expect(hitFields(blank).map((f) => f.name)).toEqual(['Server', 'Id'])
  })

  it('lists every field the hit has in reading order, a link as code that wraps', () => {
    const hit = testHit('wiki', 'h1', {
      sourceId: 'hr',
      score: 0.25,
      scoreOrder: 'lower-is-better',
      uri: 'https://wiki/h1',
      fileName: 'leave.pdf',
      fileType: 'pdf',
      timestamp: '2026-01-02',
      flags: ['suspicious', 'violations'],
    })
    expect(hitFields(hit)).toEqual([
      { name: 'Server', text: 'wiki', code: 'plain' },
      { name: 'Source', text: 'hr', code: 'plain' },
      { name: 'Id', text: 'h1', code: 'plain' },
      { name: 'Score', text: '0.250 (a distance: lower is better)' },
      { name: 'URI', text: 'https://wiki/h1', code: 'wrap' },
      { name: 'File', text: 'leave.pdf (pdf)' },
      { name: 'Time', text: '2026-01-02' },
      { name: 'Flags', text: 'suspicious, violations' },
    ])
    expect(hitFields(testHit('wiki', 'h1', { fileName: 'a.txt' }))).toContainEqual({
      name: 'File',
      text: 'a.txt',
    })
  })

  it('gives a merged hit its fused score and rank right after its own score', () => {
    expect(hitFields(merged()).map((f) => [f.name, f.text])).toEqual([
      ['Server', 'wiki'],
      ['Id', 'h1'],
      ['Score', '0.500'],
      ['Fused', '0.0325 (rank 2)'],
    ])
  })
})

describe('where a merged hit was found', () => {
  it('names each place by server, source and passage, with its rank and score there', () => {
    const [first, second] = merged().foundIn
    expect(placeName(first!)).toBe('wiki · hr · h1')
    expect(placeName(second!)).toBe('docs · d9')
    expect(placeRank(first!)).toBe(' — rank 1, score 0.500')
    expect(placeRank(second!)).toBe(' — rank 3')
  })

  it('picks out the flagged copies; a plain hit has none', () => {
    expect(flaggedPlaces(merged()).map(placeName)).toEqual(['docs · d9'])
    expect(flaggedPlaces(testHit('wiki', 'h1', { flags: ['suspicious'] }))).toEqual([])
  })
})

describe('Copy as JSON', () => {
  it('adds the raw reply while main holds it, and copies the hit alone once it does not', () => {
    const hit = testHit('wiki', 'h1', { raw: undefined })
    expect(JSON.parse(hitJson(hit, { held: true, raw: { segments: [1] } }))).toMatchObject({
      id: 'h1',
      raw: { segments: [1] },
    })
    expect(JSON.parse(hitJson(hit, { held: false }))).not.toHaveProperty('raw')
    expect(JSON.parse(hitJson(hit, undefined))).toMatchObject({ server: 'wiki', id: 'h1' })
  })

  it('names a hit by its title, or its id when it has none', () => {
    expect(hitName({ title: 'Leave policy', id: 'h1' })).toBe('Leave policy')
    expect(hitName({ title: '', id: 'h1' })).toBe('h1')
  })
})
