import { describe, expect, it } from 'vitest'
import type { AccessResult, LinkCheck } from '../../../shared/model/rag'
import { explainAccess, roughDuration } from './access-explain'

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0)
const threeHoursAgo = Math.floor((NOW - 3 * 3_600_000) / 1000)
const signed = `https://docs.example/docs/a?u=bob&exp=${threeHoursAgo}&sig=abc`
const fresh = `https://docs.example/docs/a?u=bob&exp=${threeHoursAgo + 4 * 3600}&sig=def`

function link(
  url: string,
  classification: LinkCheck['classification'],
  status?: number,
): LinkCheck {
  const check: LinkCheck = {
    url,
    ok: classification === 'ok',
    classification,
    latencyMs: 12,
    redirects: [{ url, status: status ?? 0, latencyMs: 12 }],
  }
  if (status !== undefined) check.status = status
  return check
}

function access(extra: Partial<AccessResult>): AccessResult {
  return { server: 'kb', segmentId: 's1', hasAccess: true, checked: true, violations: [], ...extra }
}

describe('explainAccess', () => {
  it('says an expired signed link was replaced by a fresh one that works', () => {
    const result = explainAccess({
      server: 'kb',
      originalUrl: signed,
      access: access({ refreshedUrl: fresh }),
      link: link(fresh, 'ok', 200),
      now: NOW,
    })
    expect(result.verdict).toBe('ok')
    expect(result.explanation).toMatch(
      /^the signed link expired 3 h ago; the server issued a fresh one that works \(HTTP 200/,
    )
  })

  it("repeats the server's refusal in its own words", () => {
    const result = explainAccess({
      server: 'kb',
      access: access({ hasAccess: false, error: 'Document has been deleted' }),
      now: NOW,
    })
    expect(result).toEqual({
      verdict: 'not_found',
      explanation: 'the server says the document has been deleted',
    })
  })

  it('calls a refusal without a reason forbidden and notes a link that still opens', () => {
    const result = explainAccess({
      server: 'kb',
      originalUrl: 'https://docs.example/docs/a',
      access: access({ hasAccess: false }),
      link: link('https://docs.example/docs/a', 'ok', 200),
      now: NOW,
    })
    expect(result.verdict).toBe('forbidden')
    expect(result.explanation).toMatch(/may not open it; note that the link itself still opens/)
  })

  it('says when the server cannot issue a fresh link for an expired one', () => {
    const result = explainAccess({
      server: 'vault',
      originalUrl: signed,
      access: access({ hasAccess: null, checked: false }),
      link: link(signed, 'expired', 403),
      now: NOW,
    })
    expect(result.verdict).toBe('expired')
    expect(result.explanation).toBe(
      'the signed link expired 3 h ago (HTTP 403, 12 ms); server vault cannot issue a fresh one (it has no verify_document_access)',
    )
  })

  it('puts a failed verification before what the original link did', () => {
    const result = explainAccess({
      server: 'kb',
      originalUrl: 'https://docs.example/x',
      verifyError: { code: 'timeout', message: 'server kb did not answer within 100 ms' },
      link: link('https://docs.example/x', 'not_found', 404),
      now: NOW,
    })
    expect(result.verdict).toBe('not_found')
    expect(result.explanation).toMatch(/^could not ask server kb \(server kb did not answer/)
    expect(result.explanation).toMatch(/moved or deleted/)
  })

  it('names the sign-in page a login wall leads to', () => {
    const wall = link('https://docs.example/portal/a', 'login_wall', 200)
    wall.redirects = [
      { url: 'https://docs.example/portal/a', status: 302, latencyMs: 3 },
      { url: 'https://docs.example/login?next=/portal/a', status: 200, latencyMs: 3 },
    ]
    const result = explainAccess({ originalUrl: wall.url, link: wall, now: NOW })
    expect(result.explanation).toBe(
      'the link leads to a sign-in page (https://docs.example/login?next=/portal/a): it opens only for someone signed in to docs.example',
    )
  })

  it('says a non-web link is not checked', () => {
    const bad = link('\\\\fileserver\\legal\\a.pdf', 'invalid_url')
    bad.error = 'only http(s) URLs are checked'
    bad.redirects = []
    const result = explainAccess({ originalUrl: bad.url, link: bad, now: NOW })
    expect(result.verdict).toBe('invalid_url')
    expect(result.explanation).toMatch(/is not a web link \(only http\(s\) URLs are checked\)/)
  })

  it('reports a citation with nothing to check', () => {
    expect(explainAccess({ now: NOW }).verdict).toBe('invalid_url')
  })
})

describe('roughDuration', () => {
  it('rounds to minutes, hours or days', () => {
    expect(roughDuration(30_000)).toBe('moments')
    expect(roughDuration(12 * 60_000)).toBe('12 min')
    expect(roughDuration(3 * 3_600_000)).toBe('3 h')
    expect(roughDuration(3 * 86_400_000)).toBe('3 days')
  })
})
