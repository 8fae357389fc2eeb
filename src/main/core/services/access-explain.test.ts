import { describe, expect, it } from 'vitest'
import type { AccessResult, LinkCheck } from '#shared/model/rag'
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
  /** The expired link the user clicked, and what the fresh one the server issued did. */
  const clickedExpired = (freshLink: LinkCheck) =>
    explainAccess({
      server: 'kb',
      originalUrl: signed,
      access: access({ refreshedUrl: fresh }),
      link: link(signed, 'expired', 403),
      freshLink,
      now: NOW,
    })

  it('says the clicked link expired and that the server can issue a fresh one', () => {
    const result = clickedExpired(link(fresh, 'ok', 200))
    expect(result.verdict).toBe('expired')
    expect(result.explanation).toMatch(
      /^this link expired 3 h ago \(HTTP 403, 12 ms\); the server can issue a fresh one \(open it: HTTP 200/,
    )
  })

  it('says a fresh link the server issued fails too', () => {
    const result = clickedExpired(link(fresh, 'server_error', 500))
    expect(result.verdict).toBe('expired')
    expect(result.explanation).toMatch(/; even the fresh link the server issued fails \(HTTP 500/)
  })

  it('checks the link the server issued when the citation carried none', () => {
    const result = explainAccess({
      server: 'kb',
      access: access({ refreshedUrl: fresh, accessLevel: 'read' }),
      link: link(fresh, 'ok', 200),
      now: NOW,
    })
    expect(result.verdict).toBe('ok')
    expect(result.explanation).toMatch(/^the server confirms access \(read\), and the link opens/)
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

  it('calls a link that opens for a user the server denies a leak, naming the user', () => {
    const result = explainAccess({
      server: 'kb',
      user: 'alice@example.com',
      originalUrl: 'https://docs.example/docs/a',
      access: access({ hasAccess: false }),
      link: link('https://docs.example/docs/a', 'ok', 200),
      now: NOW,
    })
    expect(result.verdict).toBe('leak')
    expect(result.conflict).toBe(true)
    expect(result.explanation).toBe(
      'the link opens for anyone who holds it (HTTP 200, 12 ms), but the server denies alice@example.com',
    )
  })

  it('quotes the server’s refusal after the user it denies', () => {
    const result = explainAccess({
      server: 'kb',
      user: 'alice@example.com',
      originalUrl: 'https://docs.example/docs/a',
      access: access({ hasAccess: false, error: 'Access denied: legal only' }),
      link: link('https://docs.example/docs/a', 'ok', 200),
      now: NOW,
    })
    expect(result.verdict).toBe('leak')
    expect(result.explanation).toBe(
      'the link opens for anyone who holds it (HTTP 200, 12 ms), but the server denies alice@example.com: "Access denied: legal only"',
    )
  })

  it('says so in one sentence when the server grants access but the host refuses the link', () => {
    const result = explainAccess({
      server: 'kb',
      user: 'bob@example.com',
      originalUrl: 'https://docs.example/docs/a',
      access: access({ hasAccess: true, accessLevel: 'admin' }),
      link: link('https://docs.example/docs/a', 'forbidden', 403),
      now: NOW,
    })
    expect(result.verdict).toBe('forbidden')
    expect(result.conflict).toBe(true)
    expect(result.explanation).toBe(
      'the server and the document host disagree: the server says bob@example.com has access (admin), but the host refuses the link (HTTP 403, 12 ms)',
    )
    expect(result.explanation).not.toMatch(/may not open it/)
  })

  it('keeps a refusal that the link agrees with as the verdict, without a conflict', () => {
    const result = explainAccess({
      server: 'kb',
      originalUrl: signed,
      access: access({ hasAccess: false, error: 'Access denied: legal only' }),
      link: link(signed, 'expired', 403),
      now: NOW,
    })
    expect(result.verdict).toBe('forbidden')
    expect(result.conflict).toBeUndefined()
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
      'this link expired 3 h ago (HTTP 403, 12 ms); server vault cannot issue a fresh one (it has no verify_document_access)',
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

  it('says a non-web link is not checked and shows a UNC path as written', () => {
    const bad = link('\\\\fileserver\\legal\\a.pdf', 'invalid_url')
    bad.error = 'only http(s) URLs are checked'
    bad.redirects = []
    const result = explainAccess({ originalUrl: bad.url, link: bad, now: NOW })
    expect(result.verdict).toBe('invalid_url')
    expect(result.explanation).toBe(
      '“\\\\fileserver\\legal\\a.pdf” is not a web link (only http(s) URLs are checked)',
    )
  })

  it('calls a citation with nothing to check no_link, not invalid_url', () => {
    expect(explainAccess({ now: NOW })).toEqual({
      verdict: 'no_link',
      explanation: 'the citation carries no link to check',
    })
  })

  it('says a link the address policy refused was not fetched', () => {
    const refused = link('http://169.254.169.254/latest', 'blocked')
    refused.error = '169.254.169.254 is a link-local or cloud metadata address'
    refused.redirects = []
    const result = explainAccess({ originalUrl: refused.url, link: refused, now: NOW })
    expect(result.verdict).toBe('blocked')
    expect(result.explanation).toBe(
      'the console did not fetch this link: 169.254.169.254 is a link-local or cloud metadata address (Access → Link policy, or linkPolicy in settings.json)',
    )
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
