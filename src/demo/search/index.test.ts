import { describe, expect, it } from 'vitest'
import { getCorpus } from '../data/corpus'
import { ChunkIndex } from './index'
import { tokenize, processTerm } from './text'

describe('ChunkIndex', () => {
  const corpus = getCorpus()
  const index = new ChunkIndex(corpus.docs, corpus.chunksOf)

  it('ranks the topical document first for a natural-language query', () => {
    const [top] = index.searchChunks('how do I reset multi-factor authentication on a new phone')
    expect(top?.doc.id).toMatch(/^it-mfa-/)
  })

  it('scores by term statistics, not substring presence', () => {
    const hits = index.searchChunks('webhooks retried backoff')
    expect(hits[0]?.doc.id).toMatch(/^pd-webhooks-/)
    expect(hits[0]!.score).toBeGreaterThan(hits.at(-1)!.score)
  })

  it('finds Japanese text through character bigrams', () => {
    const hits = index.searchChunks('VPN接続')
    expect(hits.map((hit) => hit.doc.id)).toContain('it-vpn-setup-ja')
  })

  it('fuses several phrases and keeps at most two chunks per document', () => {
    const hits = index.searchPhrases(
      ['pto', 'paid time off carry over', 'vacation days per year'],
      () => true,
      20,
    )
    const perDoc = new Map<string, number>()
    for (const hit of hits) perDoc.set(hit.doc.id, (perDoc.get(hit.doc.id) ?? 0) + 1)
    expect(Math.max(...perDoc.values())).toBeLessThanOrEqual(2)
    expect(new Set(hits.map((hit) => hit.chunk.id)).size).toBe(hits.length)
    expect(hits[0]?.doc.id).toMatch(/^hb-pto-/)
  })

  it('lets extra phrases bring in hits the first phrase misses', () => {
    const alone = index.searchPhrases(['laptop'], () => true, 50).map((hit) => hit.doc.id)
    const fused = index
      .searchPhrases(['laptop', 'GlobalProtect gateway'], () => true, 50)
      .map((hit) => hit.doc.id)
    expect(fused.some((id) => id.startsWith('it-vpn-') && !alone.includes(id))).toBe(true)
  })

  it('answers a query asked again the same way, with the new filter applied', () => {
    const first = index.searchPhrases(['vpn setup', 'GlobalProtect'], () => true, 20)
    const again = index.searchPhrases(['vpn setup', 'GlobalProtect'], () => true, 20)
    expect(again).toEqual(first)
    const filtered = index.searchPhrases(
      ['vpn setup', 'GlobalProtect'],
      (doc) => doc.lang !== 'ja',
      20,
    )
    expect(filtered.length).toBeGreaterThan(0)
    expect(filtered.every((hit) => hit.doc.lang !== 'ja')).toBe(true)
    expect(first.some((hit) => hit.doc.lang === 'ja')).toBe(true)
  })

  it('honours the accept filter', () => {
    const hits = index.searchChunks('liability cap', (doc) => doc.source !== 'legal')
    expect(hits.every((hit) => hit.doc.source !== 'legal')).toBe(true)
  })
})

describe('tokenize', () => {
  it('drops stop words and keeps acronyms lower-cased', () => {
    expect(tokenize('How do I set up the VPN?').map(processTerm).filter(Boolean)).toEqual([
      'set',
      'up',
      'vpn',
    ])
  })
})
