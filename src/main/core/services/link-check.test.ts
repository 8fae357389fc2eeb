import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkLink, urlExpiry } from './link-check'
import { createLinkPolicy, DEFAULT_LINK_POLICY } from './link-policy'

let server: Server
let base: string
let own: Server
let ownPort: number
/** Requests that reached the stand-in for the console's own listener. */
let ownHits = 0
const hanging = new Set<ServerResponse>()
/** Requests that reached the document host. */
let requestsSeen = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    requestsSeen++
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const redirect = (to: string): void => void res.writeHead(302, { Location: to }).end()
    switch (path) {
      case '/doc.pdf':
        return void res.writeHead(200, { 'Content-Type': 'application/pdf' }).end('%PDF-1.4')
      case '/hop1':
        return redirect('/hop2')
      case '/hop2':
        return redirect(`${base}/doc.pdf`)
      case '/loop':
        return redirect('/loop')
      case '/needs-session':
        return redirect('/login?next=/needs-session')
      case '/login':
        return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<form>')
      case '/signed':
      case '/private':
        return void res.writeHead(403).end()
      case '/gone':
        return void res.writeHead(410).end()
      case '/busy':
        return void res.writeHead(429, { 'Retry-After': '30' }).end()
      case '/broken':
        return void res.writeHead(500).end()
      case '/to-file':
        return redirect('file:///etc/passwd')
      case '/to-malformed':
        return redirect('http://[not-a-host/doc.pdf')
      case '/to-userinfo':
        return redirect(`http://svc:redirect-pass-9@${new URL(base).host}/doc.pdf`)
      case '/to-metadata':
        return redirect('http://169.254.169.254/latest/meta-data/')
      case '/to-own':
        return redirect(`http://localhost:${ownPort}/#token=secret`)
      case '/hang':
        hanging.add(res)
        return
      default:
        return void res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  own = createServer((_req, res) => {
    ownHits++
    res.writeHead(200).end('console')
  })
  await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve))
  ownPort = (own.address() as AddressInfo).port
})

afterAll(async () => {
  for (const res of hanging) res.destroy()
  server.closeAllConnections()
  own.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  await new Promise((resolve) => own.close(resolve))
})

describe('checkLink', () => {
  it('reports an opening link as ok with its content type', async () => {
    const check = await checkLink(`${base}/doc.pdf`)
    expect(check).toMatchObject({
      ok: true,
      classification: 'ok',
      status: 200,
      contentType: 'application/pdf',
    })
    expect(check.redirects).toHaveLength(1)
  })

  it('follows redirects and records every hop', async () => {
    const check = await checkLink(`${base}/hop1`)
    expect(check.classification).toBe('ok')
    expect(check.redirects.map((hop) => [new URL(hop.url).pathname, hop.status])).toEqual([
      ['/hop1', 302],
      ['/hop2', 302],
      ['/doc.pdf', 200],
    ])
  })

  it('stops after the redirect limit', async () => {
    const check = await checkLink(`${base}/loop`, { maxRedirects: 5 })
    expect(check.classification).toBe('server_error')
    expect(check.error).toMatch(/more than 5 redirects/)
    expect(check.redirects).toHaveLength(6)
  })

  it('calls a redirect to a login page a login wall', async () => {
    expect((await checkLink(`${base}/needs-session`)).classification).toBe('login_wall')
  })

  it('calls 403 on a signed URL expired and on a plain URL forbidden', async () => {
    expect((await checkLink(`${base}/signed?exp=1700000000&sig=abc`)).classification).toBe(
      'expired',
    )
    expect((await checkLink(`${base}/signed?token=abc`)).classification).toBe('expired')
    expect((await checkLink(`${base}/private`)).classification).toBe('forbidden')
  })

  it('calls 403 on a signed URL that has not expired yet forbidden (revoked)', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600
    expect((await checkLink(`${base}/signed?exp=${future}&sig=abc`)).classification).toBe(
      'forbidden',
    )
  })

  it('maps 404/410, 429 and 5xx', async () => {
    expect((await checkLink(`${base}/nope`)).classification).toBe('not_found')
    expect((await checkLink(`${base}/gone`)).classification).toBe('not_found')
    expect((await checkLink(`${base}/busy`)).classification).toBe('rate_limited')
    expect((await checkLink(`${base}/broken`)).classification).toBe('server_error')
  })

  it('never fetches anything but http(s)', async () => {
    expect(await checkLink('file:///etc/passwd')).toMatchObject({
      classification: 'invalid_url',
      redirects: [],
    })
    expect((await checkLink('not a url')).classification).toBe('invalid_url')
  })

  it('refuses a redirect to a non-http scheme as blocked', async () => {
    const redirected = await checkLink(`${base}/to-file`)
    expect(redirected.classification).toBe('blocked')
    expect(redirected.error).toMatch(/redirected to a non-http\(s\) address \(file:\)/)
    expect(redirected.redirects.map((hop) => hop.status)).toEqual([302])
  })

  it('calls a malformed redirect Location an invalid URL, not unreachable', async () => {
    const check = await checkLink(`${base}/to-malformed`)
    expect(check).toMatchObject({ classification: 'invalid_url', status: 302 })
    expect(check.error).toMatch(/malformed redirect/)
  })

  it('calls a URL with a user name or password invalid, without repeating the password', async () => {
    const direct = await checkLink(`http://svc:pass-word-123@${new URL(base).host}/doc.pdf`)
    expect(direct).toMatchObject({ classification: 'invalid_url', redirects: [] })
    expect(direct.error).toMatch(/user name or password/)
    expect(JSON.stringify(direct)).not.toContain('pass-word-123')
    const redirected = await checkLink(`${base}/to-userinfo`)
    expect(redirected).toMatchObject({ classification: 'invalid_url', status: 302 })
    expect(JSON.stringify(redirected)).not.toContain('redirect-pass-9')
  })

  it('calls a closed port unreachable', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const check = await checkLink(`http://127.0.0.1:${port}/x`)
    expect(check.classification).toBe('unreachable')
    expect(check.error).toMatch(/ECONNREFUSED/)
  })

  it('gives up on a server that never answers', async () => {
    const check = await checkLink(`${base}/hang`, { timeoutMs: 200 })
    expect(check).toMatchObject({ classification: 'unreachable', error: 'no answer within 200 ms' })
  })

  it('can be cancelled', async () => {
    const controller = new AbortController()
    const pending = checkLink(`${base}/hang`, { signal: controller.signal })
    controller.abort()
    expect(await pending).toMatchObject({ classification: 'unreachable', error: 'cancelled' })
  })
})

describe('checkLink with the address policy (loopback only)', () => {
  // The registry's servers run on 127.0.0.1, as the demo's do: links to that host are fetched.
  const policy = createLinkPolicy({
    settings: () => DEFAULT_LINK_POLICY,
    ownPorts: () => [ownPort],
    registryHosts: () => ['127.0.0.1'],
  })

  it("sends nothing to the console's own port and says why", async () => {
    ownHits = 0
    const check = await checkLink(`http://127.0.0.1:${ownPort}/`, { policy })
    expect(check).toMatchObject({ classification: 'blocked', ok: false, redirects: [] })
    expect(check.error).toBe(`127.0.0.1:${ownPort} is the console's own port`)
    expect(ownHits).toBe(0)
  })

  it('does not follow a redirect to the console or to a metadata address', async () => {
    ownHits = 0
    const toOwn = await checkLink(`${base}/to-own`, { policy })
    expect(toOwn.classification).toBe('blocked')
    expect(toOwn.error).toMatch(/console's own port; not followed to http:\/\/localhost:/)
    expect(toOwn.redirects).toHaveLength(1)
    expect(ownHits).toBe(0)
    const toMetadata = await checkLink(`${base}/to-metadata`, { policy })
    expect(toMetadata.classification).toBe('blocked')
    expect(toMetadata.error).toMatch(/^169\.254\.169\.254 is a link-local or cloud metadata/)
  })

  it("still fetches loopback links to the host of the registry's servers", async () => {
    expect((await checkLink(`${base}/doc.pdf`, { policy })).classification).toBe('ok')
  })

  it('sends nothing to this machine under a name no server uses, and says why', async () => {
    const hits = requestsSeen
    const check = await checkLink(`${base.replace('127.0.0.1', 'localhost')}/doc.pdf`, { policy })
    expect(check).toMatchObject({ classification: 'blocked', ok: false, redirects: [] })
    expect(check.error).toMatch(/^localhost is 127\.0\.0\.1, a loopback address \(this machine\)/)
    expect(requestsSeen).toBe(hits)
  })

  it('refuses a name that answers with a private address at connect time after a public one', async () => {
    let lookups = 0
    const rebinding = createLinkPolicy({
      settings: () => DEFAULT_LINK_POLICY,
      ownPorts: () => [ownPort],
      registryHosts: () => [],
      resolve: async () => (lookups++ === 0 ? ['192.0.2.10'] : ['127.0.0.1']),
    })
    const hits = requestsSeen
    const port = new URL(base).port
    const check = await checkLink(`http://docs.rebind.test:${port}/doc.pdf`, { policy: rebinding })
    expect(check).toMatchObject({ classification: 'blocked', redirects: [] })
    expect(check.error).toMatch(/^docs\.rebind\.test is 127\.0\.0\.1, a loopback address/)
    expect(requestsSeen).toBe(hits)
    expect(lookups).toBe(2)
  })

  it('refuses a name that answers with the console at connect time after a harmless check', async () => {
    // DNS rebinding: the first answer (checked) is a documentation address nothing is sent to;
    // every later one is this machine, where the console listens.
    let lookups = 0
    const rebinding = createLinkPolicy({
      settings: () => DEFAULT_LINK_POLICY,
      ownPorts: () => [ownPort],
      registryHosts: () => ['localhost'],
      resolve: async () => (lookups++ === 0 ? ['192.0.2.10'] : ['127.0.0.1']),
    })
    ownHits = 0
    const check = await checkLink(`http://localhost:${ownPort}/`, { policy: rebinding })
    expect(ownHits).toBe(0)
    expect(check).toMatchObject({ classification: 'blocked', ok: false, redirects: [] })
    expect(check.error).toBe(`localhost:${ownPort} is the console's own port`)
    expect(lookups).toBe(2)
  })

  it('connects to the address it checked', async () => {
    const port = new URL(base).port
    const pinned = createLinkPolicy({
      settings: () => ({ ...DEFAULT_LINK_POLICY, privateHosts: ['docs.rebind.test'] }),
      ownPorts: () => [ownPort],
      registryHosts: () => [],
      resolve: async () => ['127.0.0.1'],
    })
    const check = await checkLink(`http://docs.rebind.test:${port}/doc.pdf`, { policy: pinned })
    expect(check).toMatchObject({ classification: 'ok', contentType: 'application/pdf' })
  })

  it('tries every address it decided, as a dual-stack name needs', async () => {
    // Nothing listens on [::1] at this port: the IPv4 address it also decided answers.
    const port = new URL(base).port
    const dualStack = createLinkPolicy({
      settings: () => ({ ...DEFAULT_LINK_POLICY, privateHosts: ['docs.dual.test'] }),
      ownPorts: () => [ownPort],
      registryHosts: () => [],
      resolve: async () => ['::1', '127.0.0.1'],
    })
    const check = await checkLink(`http://docs.dual.test:${port}/doc.pdf`, { policy: dualStack })
    expect(check).toMatchObject({ classification: 'ok' })
  })
})

describe('urlExpiry', () => {
  it('reads epoch seconds, epoch milliseconds and ISO dates', () => {
    expect(urlExpiry(new URL('http://x/?exp=1700000000'))).toBe(1_700_000_000_000)
    expect(urlExpiry(new URL('http://x/?expires=1700000000123'))).toBe(1_700_000_000_123)
    expect(urlExpiry(new URL('http://x/?se=2024-01-01T00:00:00Z'))).toBe(
      Date.parse('2024-01-01T00:00:00Z'),
    )
    expect(urlExpiry(new URL('http://x/?page=2'))).toBeUndefined()
  })
})
