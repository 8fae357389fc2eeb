import { describe, expect, it } from 'vitest'
import { getCorpus } from './data/corpus'
import { STALE_EXPIRY, citationUrl, freshUrl, linkSignature, signatureMatches } from './links'

const ctx = {
  docHost: 'http://docs.test',
  userId: 'bob@example.com',
  ttlSeconds: 60,
  secret: 's3cret',
  now: 1_700_000_000_000,
}

describe('citation links', () => {
  const corpus = getCorpus()

  it('gives internal documents a plain, stable link', () => {
    expect(citationUrl(corpus.byId.get('hb-pto-policy')!, ctx)).toBe(
      'http://docs.test/docs/hb-pto-policy',
    )
  })

  it('signs restricted documents for the user with the TTL', () => {
    const url = new URL(citationUrl(corpus.byId.get('en-incidents-runbook')!, ctx)!)
    expect(url.searchParams.get('u')).toBe('bob@example.com')
    expect(Number(url.searchParams.get('exp'))).toBe(1_700_000_000 + 60)
    const sig = url.searchParams.get('sig')!
    expect(
      signatureMatches('en-incidents-runbook', 'bob@example.com', 1_700_000_060, sig, 's3cret'),
    ).toBe(true)
    expect(
      signatureMatches('en-incidents-runbook', 'alice@example.com', 1_700_000_060, sig, 's3cret'),
    ).toBe(false)
  })

  it('re-signs stale links when a fresh one is asked for', () => {
    const doc = corpus.byId.get('lg-msa-clauses')!
    expect(new URL(citationUrl(doc, ctx)!).searchParams.get('exp')).toBe(String(STALE_EXPIRY))
    expect(new URL(freshUrl(doc, ctx)!).searchParams.get('exp')).toBe(String(1_700_000_060))
  })

  it('produces the misbehaving link kinds', () => {
    expect(citationUrl(corpus.byId.get('it-email-troubleshoot')!, ctx)).toMatch(
      /^http:\/\/127\.0\.0\.1:9\//,
    )
    expect(citationUrl(corpus.byId.get('lg-retention-overview')!, ctx)).toMatch(/^\\\\fileserver\\/)
    expect(citationUrl(corpus.byId.get('hb-health-benefits-request')!, ctx)).toContain('/portal/')
    expect(citationUrl(corpus.byId.get('it-scan-0042')!, ctx)).toBeUndefined()
  })

  it('uses 32 hex characters of HMAC-SHA256', () => {
    expect(linkSignature('a', 'b', 1, 'k')).toMatch(/^[0-9a-f]{32}$/)
  })
})
