import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dedupeKey, fuseHits, mergeResults, RRF_K, withPlaces } from './fusion'
import { testHit as hit } from '#test/support/model/hits'

describe('fuseHits (rrf)', () => {
  it('ranks by the sum of 1/(k + rank) over the lists a hit appears in', () => {
    const merged = fuseHits([
      {
        server: 'a',
        hits: [hit('a', 'x', { uri: 'https://d/x' }), hit('a', 'y', { uri: 'https://d/y' })],
      },
      { server: 'b', hits: [hit('b', 'y2', { uri: 'https://d/y' }), hit('b', 'z')] },
    ])
    expect(merged.map((h) => h.uri ?? h.id)).toEqual(['https://d/y', 'https://d/x', 'z'])
    expect(merged[0]!.fusedScore).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    expect(merged[0]!.foundIn.map((f) => [f.server, f.rank])).toEqual([
      ['a', 2],
      ['b', 1],
    ])
    expect(merged.map((h) => h.rank)).toEqual([1, 2, 3])
  })

  it('keeps the copy from the list where the hit ranked best', () => {
    const merged = fuseHits([
      {
        server: 'a',
        hits: [hit('a', 'p'), hit('a', 'q', { uri: 'https://d/q', title: 'from a' })],
      },
      { server: 'b', hits: [hit('b', 'q', { uri: 'https://d/q', title: 'from b' })] },
    ])
    expect(merged.find((h) => h.uri === 'https://d/q')!.title).toBe('from b')
  })

  it('counts a server repeating a hit only once', () => {
    const merged = fuseHits([
      {
        server: 'a',
        hits: [hit('a', '1', { uri: 'https://d/1' }), hit('a', '2', { uri: 'https://d/1' })],
      },
    ])
    expect(merged).toHaveLength(1)
    expect(merged[0]!.fusedScore).toBeCloseTo(1 / (RRF_K + 1))
  })
})

describe('fuseHits (flags)', () => {
  it('marks a merged hit suspicious when any of its copies is, and names those copies', () => {
    const doc = 'https://d/vendor-notes'
    const merged = fuseHits([
      {
        server: 'a',
        hits: [
          hit('a', 'notes#2', { uri: doc }),
          hit('a', 'notes#1', { uri: doc, flags: ['suspicious'] }),
        ],
      },
      { server: 'b', hits: [hit('b', 'n-1', { uri: doc, flags: ['suspicious'], sourceId: 'it' })] },
    ])
    expect(merged).toHaveLength(1)
    expect(merged[0]!.id).toBe('notes#2')
    expect(merged[0]!.flags).toEqual(['suspicious'])
    expect(merged[0]!.foundIn.map((f) => [f.server, f.hitId, f.suspicious ?? false])).toEqual([
      ['a', 'notes#2', false],
      ['a', 'notes#1', true],
      ['b', 'n-1', true],
    ])
  })

  it('leaves a merged hit unflagged when none of its copies is flagged', () => {
    const merged = fuseHits([{ server: 'a', hits: [hit('a', 'x', { flags: ['derived_title'] })] }])
    expect(merged[0]!.flags).toEqual(['derived_title'])
    expect(merged[0]!.foundIn[0]!.suspicious).toBeUndefined()
  })
})

describe('fuseHits (score modes)', () => {
  const lists = [
    {
      server: 'a',
      hits: [hit('a', 'a1', { score: 12 }), hit('a', 'a2', { score: 4 }), hit('a', 'a3')],
    },
    { server: 'b', hits: [hit('b', 'b1', { score: 0.9 }), hit('b', 'b2', { score: 0.8 })] },
  ]

  it('orders by raw score with unscored hits last', () => {
    expect(fuseHits(lists, 'score').map((h) => h.id)).toEqual(['a1', 'a2', 'b1', 'b2', 'a3'])
  })

  it('scales each server to 0..1 before comparing, ties broken by rank', () => {
    const merged = fuseHits(lists, 'minmax')
    expect(merged.map((h) => [h.id, h.fusedScore])).toEqual([
      ['a1', 1],
      ['b1', 1],
      ['a2', 0],
      ['b2', 0],
      ['a3', 0],
    ])
  })
})

describe('fuseHits (distances: smaller is better)', () => {
  const distances = {
    server: 'vec',
    hits: [
      hit('vec', 'near', { score: 0.1, scoreOrder: 'lower-is-better' }),
      hit('vec', 'mid', { score: 0.3, scoreOrder: 'lower-is-better' }),
      hit('vec', 'far', { score: 0.9, scoreOrder: 'lower-is-better' }),
    ],
  }

  it('puts the smallest distance first in score mode', () => {
    expect(fuseHits([distances], 'score').map((h) => h.id)).toEqual(['near', 'mid', 'far'])
  })

  it('scales the smallest distance to 1 and the largest to 0 in minmax mode', () => {
    const merged = fuseHits([distances], 'minmax')
    expect(merged.map((h) => h.id)).toEqual(['near', 'mid', 'far'])
    expect(merged.map((h) => h.fusedScore)).toEqual([1, expect.closeTo(0.75), 0])
  })

  it('ranks a distance list against a similarity list by scaled closeness', () => {
    const similarity = {
      server: 'kb',
      hits: [hit('kb', 'best', { score: 0.8 }), hit('kb', 'worst', { score: 0.2 })],
    }
    const merged = fuseHits([similarity, distances], 'minmax')
    expect(merged.map((h) => h.id)).toEqual(['best', 'near', 'mid', 'worst', 'far'])
  })
})

describe('dedupeKey', () => {
  it('ignores signing parameters, fragments and parameter order', () => {
    expect(dedupeKey(hit('a', '1', { uri: 'https://h/doc?b=2&a=1&sig=x&exp=1#p3' }))).toBe(
      dedupeKey(hit('b', '2', { uri: 'https://h/doc?a=1&b=2&sig=y&exp=9' })),
    )
    expect(dedupeKey(hit('a', '1', { uri: 'https://h/doc?page=1' }))).not.toBe(
      dedupeKey(hit('a', '1', { uri: 'https://h/doc?page=2' })),
    )
  })

  it('falls back to the id when there is no URL', () => {
    expect(dedupeKey(hit('a', 'seg-1'))).toBe('id:seg-1')
  })
})

describe('withPlaces', () => {
  /** Up to 6 servers (some failed) of up to 8 hits, drawn from 10 documents, some flagged. */
  const servers = fc.array(
    fc.record({
      ok: fc.boolean(),
      docs: fc.array(fc.record({ doc: fc.nat(9), score: fc.float(), flagged: fc.boolean() }), {
        maxLength: 8,
      }),
    }),
    { maxLength: 6 },
  )

  it("gives every merged hit the places mergeResults lists, from the servers' own lists", () => {
    fc.assert(
      fc.property(servers, fc.constantFrom('rrf', 'score', 'minmax'), (drawn, mode) => {
        const parts = drawn.map(({ ok, docs }, s) => ({
          server: `s${s}`,
          ok,
          hits: docs.map(({ doc, score, flagged }, i) =>
            hit(`s${s}`, `s${s}-${i}`, {
              uri: `https://d/${doc}`,
              score,
              flags: flagged ? ['suspicious'] : [],
            }),
          ),
        }))
        const merged = mergeResults(parts, mode, 5)
        const sent = merged.map(({ foundIn: _foundIn, ...rest }) => rest)
        expect(withPlaces(sent, parts)).toEqual(merged)
      }),
      { numRuns: 200 },
    )
  })

  it('returns a list whose hits all know their places as it is', () => {
    const merged = mergeResults([{ server: 'a', ok: true, hits: [hit('a', 'x')] }], 'rrf', 5)
    expect(withPlaces(merged, [])).toBe(merged)
  })
})
