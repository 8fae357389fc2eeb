import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOC_SIGNING_SECRET } from '../keys'
import { UNREACHABLE_ORIGIN, signedDocUrl } from '../links'
import { startDemo, type DemoProcess } from '#test/support/demo/programs'

const nowSeconds = (): number => Math.floor(Date.now() / 1000)

describe('document host (built, child process)', () => {
  let host: DemoProcess
  let base: string
  const get = (path: string, init: RequestInit = {}) =>
    fetch(path.startsWith('http') ? path : `${base}${path}`, { redirect: 'manual', ...init })
  const signed = (docId: string, user: string, exp: number) =>
    signedDocUrl(base, docId, user, exp, DOC_SIGNING_SECRET)

  beforeAll(async () => {
    host = await startDemo(['doc-host', '--port', '0'])
    base = host.url.replace(/\/$/, '')
  })
  afterAll(() => host?.stop())

  it('prints a ready line with its URL', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
  })

  it('serves an internal document on its plain link', async () => {
    const response = await get('/docs/hb-pto-policy')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/text\/html/)
    expect(await response.text()).toContain('Paid Time Off Policy')
  })

  it('refuses a restricted document without a signature (403)', async () => {
    const response = await get('/docs/en-deployments-runbook')
    expect(response.status).toBe(403)
    expect(response.headers.get('x-doc-host-reason')).toBe('signature_required')
  })

  it('opens a restricted document on a valid signed link', async () => {
    const response = await get(signed('en-incidents-runbook', 'bob@example.com', nowSeconds() + 60))
    expect(response.status).toBe(200)
  })

  it('answers 403 "expired" once the signed link is past its expiry', async () => {
    const response = await get(signed('en-incidents-runbook', 'bob@example.com', nowSeconds() - 1))
    expect(response.status).toBe(403)
    expect(response.headers.get('x-doc-host-reason')).toBe('expired')
    expect(await response.text()).toMatch(/expired/)
  })

  it('answers 403 when the signature was tampered with', async () => {
    const url = new URL(signed('en-incidents-runbook', 'bob@example.com', nowSeconds() + 60))
    url.searchParams.set('u', 'alice@example.com')
    const response = await get(url.href)
    expect(response.status).toBe(403)
    expect(response.headers.get('x-doc-host-reason')).toBe('bad_signature')
  })

  it('honours revocation for the user the link was signed for', async () => {
    const exp = nowSeconds() + 60
    const revoked = await get(signed('en-incidents-postmortem', 'bob@example.com', exp))
    expect(revoked.status).toBe(403)
    expect(revoked.headers.get('x-doc-host-reason')).toBe('revoked')
    expect((await get(signed('en-incidents-postmortem', 'carol@example.com', exp))).status).toBe(
      200,
    )
  })

  it('answers 410 for a deleted document and 404 for moved or unknown ones', async () => {
    expect((await get('/docs/it-backups-faq')).status).toBe(410)
    expect((await get('/docs/en-api-versioning-checklist')).status).toBe(404)
    expect((await get('/docs/no-such-doc')).status).toBe(404)
  })

  it('redirects portal links to the login page', async () => {
    const response = await get('/portal/hb-health-benefits-request')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toMatch(/^\/login\?next=/)
    const login = await get(response.headers.get('location')!)
    expect(login.status).toBe(200)
    expect(await login.text()).toContain('Sign in')
  })

  it('answers 429 with Retry-After and 500 on the dedicated paths', async () => {
    const throttled = await get('/throttled/it-printer-setup')
    expect(throttled.status).toBe(429)
    expect(throttled.headers.get('retry-after')).toBe('30')
    expect((await get('/error/en-observability-runbook')).status).toBe(500)
  })

  it('answers HEAD like GET without a body and refuses other methods', async () => {
    const head = await get('/docs/hb-pto-policy', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    expect((await get('/docs/hb-pto-policy', { method: 'POST' })).status).toBe(405)
  })

  it('leaves unreachable links pointing where nothing listens', async () => {
    await expect(fetch(`${UNREACHABLE_ORIGIN}/wiki/it-email-troubleshoot`)).rejects.toThrow()
  })
})
