import { describe, expect, it } from 'vitest'
import { docText, getCorpus } from './corpus'
import { LINK_OVERRIDES } from './planted'

describe('demo corpus', () => {
  const corpus = getCorpus()

  it('holds a few hundred documents across six sources', () => {
    expect(corpus.docs.length).toBeGreaterThanOrEqual(250)
    const sources = new Set(corpus.docs.map((doc) => doc.source))
    expect([...sources].sort()).toEqual([
      'engineering',
      'handbook',
      'it-kb',
      'legal',
      'product',
      'sales',
    ])
  })

  it('gives every document and chunk a unique id', () => {
    expect(corpus.byId.size).toBe(corpus.docs.length)
    expect(corpus.chunkById.size).toBe(corpus.chunks.length)
  })

  it('is identical on every build', async () => {
    const { createHash } = await import('node:crypto')
    const digest = (): string =>
      createHash('sha256').update(JSON.stringify(getCorpus().docs)).digest('hex')
    const first = digest()
    expect(digest()).toBe(first)
    expect(corpus.byId.get('hb-pto-policy')?.sections[1]?.text).toMatch(
      /accrue \d+ days of paid time off/,
    )
  })

  it('fills every template placeholder', () => {
    const unfilled = corpus.chunks.filter((chunk) => /\{\w+\}/.test(chunk.text))
    expect(unfilled.map((chunk) => chunk.id)).toEqual([])
  })

  it('plants the edge cases: injection, very long, non-English, untitled', () => {
    expect(docText(corpus.byId.get('it-printer-vendor-notes')!)).toMatch(
      /ignore previous instructions/i,
    )
    expect(docText(corpus.byId.get('hb-security-policy-full')!).length).toBeGreaterThan(80_000)
    expect(
      corpus.docs
        .filter((doc) => doc.lang !== 'en')
        .map((doc) => doc.lang)
        .sort(),
    ).toEqual(['de', 'fr', 'ja'])
    expect(corpus.docs.filter((doc) => doc.title === '').map((doc) => doc.id)).toEqual([
      'it-scan-0042',
    ])
  })

  it('applies every link override to an existing document', () => {
    for (const [id, override] of Object.entries(LINK_OVERRIDES)) {
      const doc = corpus.byId.get(id)
      expect(doc, id).toBeDefined()
      if (override.link) expect(doc?.link).toBe(override.link)
      if (override.status) expect(doc?.status).toBe(override.status)
    }
  })

  it('states the same topic facts in every document about the topic', () => {
    const days = ['hb-pto-policy', 'hb-pto-request'].map(
      (id) => /accrue (\d+) days/.exec(docText(corpus.byId.get(id)!))?.[1],
    )
    expect(days[0]).toBeDefined()
    expect(days[1]).toBe(days[0])
  })
})
