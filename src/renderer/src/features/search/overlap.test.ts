import { describe, expect, it } from 'vitest'
import type { ServerSearchResult } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { testHit } from '#test/support/model/hits'
import { fuseHits } from '#shared/model/fusion'
import {
  alsoReturnedBy,
  foundBy,
  foundText,
  overlapIndex,
  overlapTotals,
  providerOverlap,
  providersOf,
} from './overlap'

const hit = (server: string, id: string, uri?: string): Hit =>
  testHit(server, id, uri ? { uri } : {})

const result = (server: string, hits: Hit[], ok = true): ServerSearchResult => ({
  server,
  ok,
  status: 'ready',
  latencyMs: 10,
  count: hits.length,
  hits,
  violations: [],
  sourceErrors: [],
})

describe('overlap', () => {
  it('lists every provider that returned the same document, signed links collapsed', () => {
    const index = overlapIndex([
      result('a', [hit('a', '1', 'https://docs/x?sig=1&exp=2')]),
      result('b', [hit('b', '9', 'https://docs/x?sig=3&exp=4')]),
    ])
    expect(providersOf(index, hit('c', 'q', 'https://docs/x'))).toEqual(['a', 'b'])
  })

  it('counts a provider repeating a document once', () => {
    const index = overlapIndex([result('a', [hit('a', '1', 'u:1'), hit('a', '2', 'u:1')])])
    expect(providersOf(index, hit('a', '1', 'u:1'))).toEqual(['a'])
  })

  it('splits each provider into shared and only-here documents', () => {
    const a = result('a', [hit('a', '1', 'https://d/1'), hit('a', '2', 'https://d/2')])
    const b = result('b', [hit('b', '7', 'https://d/1'), hit('b', '8')])
    const index = overlapIndex([a, b])
    expect(providerOverlap(index, a)).toEqual({ shared: 1, only: 1 })
    expect(providerOverlap(index, b)).toEqual({ shared: 1, only: 1 })
    expect(overlapTotals(index)).toEqual({ documents: 3, shared: 1 })
  })

  it('names the first eight other providers of a hit and counts the rest', () => {
    const found = Array.from({ length: 500 }, (_, i) => `r${i + 1}`)
    expect(alsoReturnedBy(found, 'r3')).toBe(
      'Also returned by: r1, r2, r4, r5, r6, r7, r8, r9 and 491 more',
    )
    expect(alsoReturnedBy(['a', 'b', 'c'], 'b')).toBe('Also returned by: a, c')
  })

  it('falls back to the hit itself when it is not in the index', () => {
    expect(providersOf(overlapIndex([]), hit('z', '1'))).toEqual(['z'])
  })

  it("works out each hit's identity once, however often the index is rebuilt", () => {
    // A search over 500 servers rebuilds the index on every arriving server: parsing every
    // link again each time made it quadratic.
    let reads = 0
    const hits = Array.from({ length: 50 }, (_, i) => {
      const h = hit('a', `d${i}`)
      Object.defineProperty(h, 'uri', {
        enumerable: true,
        get: () => {
          reads++
          return `https://docs.example/d${i}?sig=x`
        },
      })
      return h
    })
    overlapIndex([result('a', hits)])
    const once = reads
    overlapIndex([result('a', hits)])
    overlapIndex([result('a', hits), result('b', [])])
    expect(reads).toBe(once)
  })
})

describe('who found a hit', () => {
  it('says the same for a merged hit as its marker and the inspector: providers, then places', () => {
    // Two passages of one document from each of two providers: 2 providers, 4 places.
    const results = [
      result('kb', [hit('kb', 'vpn#1', 'https://d/vpn'), hit('kb', 'vpn#0', 'https://d/vpn')]),
      result('wiki', [
        hit('wiki', 'vpn#1', 'https://d/vpn'),
        hit('wiki', 'vpn#0', 'https://d/vpn'),
      ]),
    ]
    const index = overlapIndex(results)
    const [merged] = fuseHits(results, 'rrf')
    const found = foundBy(merged!, index)
    expect(found).toEqual({ providers: ['kb', 'wiki'], places: 4 })
    expect(found.providers).toEqual(providersOf(index, merged!))
    expect(foundText(found)).toBe('Found by 2 providers, in 4 places')
    expect(foundText(foundBy(results[0]!.hits[0]!, index))).toBe('Found by 2 providers')
    expect(foundText({ providers: ['kb'], places: 1 })).toBe('Found by one provider')
  })
})
