import { connect } from 'node:net'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { LoopbackRedirect, loopbackPort } from './loopback'

const STATE = 'expected-state-0123456789abcdef'
const open: LoopbackRedirect[] = []

async function listener(timeoutMs?: number): Promise<LoopbackRedirect> {
  const redirect = await LoopbackRedirect.open({
    serverId: 'docs',
    expectedState: () => STATE,
    ...(timeoutMs ? { timeoutMs } : {}),
  })
  open.push(redirect)
  return redirect
}

afterEach(() => {
  for (const redirect of open.splice(0)) redirect.close()
})

/** Sends a raw request target (no URL normalisation on the way) and returns the status. */
function rawGet(url: string, target: string, method = 'GET'): Promise<number> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    })
    let reply = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (reply += chunk))
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0)))
    socket.on('error', reject)
  })
}

describe('loopback sign-in redirect', () => {
  it('listens on 127.0.0.1 at /callback, takes the code with the right state, then closes', async () => {
    const redirect = await listener()
    expect(redirect.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)
    const response = await fetch(`${redirect.url}?code=the-code&state=${STATE}`)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Signed in to docs. You can close this tab.')
    await expect(redirect.code()).resolves.toBe('the-code')
    await expect(fetch(`${redirect.url}?code=again&state=${STATE}`)).rejects.toThrow()
  })

  it('answers hostile requests with 400 and keeps waiting for the real redirect', async () => {
    const redirect = await listener()
    const path = new URL(redirect.url).pathname
    const hostile = [
      `/other?code=c&state=${STATE}`,
      `${path}?code=c`,
      `${path}?code=c&state=wrong`,
      `${path}?code=c&state=${STATE}&state=${STATE}`,
      `${path}?code=c&code=d&state=${STATE}`,
      `${path}?code=c&error=access_denied&state=${STATE}`,
      `${path}?state=${STATE}`,
      `${path}?code=c&state=${STATE}&pad=${'x'.repeat(5000)}`,
      `${path}?code=%E0%A4%A&state=${STATE}x`,
    ]
    for (const target of hostile) expect(await rawGet(redirect.url, target), target).toBe(400)
    expect(await rawGet(redirect.url, `${path}?code=c&state=${STATE}`, 'POST')).toBe(400)
    const response = await fetch(`${redirect.url}?code=real&state=${STATE}`)
    expect(response.status).toBe(200)
    await expect(redirect.code()).resolves.toBe('real')
  })

  it('survives a bounded fuzz of request targets, then still takes the redirect', async () => {
    const redirect = await listener()
    const path = new URL(redirect.url).pathname
    const targets = fc.oneof(
      fc.string({ maxLength: 200 }).map((text) => `${path}?${encodeURI(text)}`),
      fc
        .array(
          fc.tuple(fc.constantFrom('code', 'state', 'error', 'x'), fc.string({ maxLength: 20 })),
          {
            maxLength: 6,
          },
        )
        .map((pairs) => `${path}?${new URLSearchParams(pairs).toString()}`),
      fc.webPath().map((p) => p || '/'),
    )
    const sample = fc.sample(targets, { numRuns: 120, seed: 20 })
    for (const target of sample) {
      const status = await rawGet(redirect.url, target)
      expect([400], target).toContain(status)
    }
    const response = await fetch(`${redirect.url}?state=${STATE}&code=after-fuzz`)
    expect(response.status).toBe(200)
    await expect(redirect.code()).resolves.toBe('after-fuzz')
  })

  it('turns an OAuth error redirect into a refusal naming the server', async () => {
    const redirect = await listener()
    const response = await fetch(
      `${redirect.url}?error=access_denied&error_description=User+said+no&state=${STATE}`,
    )
    expect(await response.text()).toContain('Sign-in to docs failed (access_denied: User said no)')
    await expect(redirect.code()).rejects.toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining(
        'server docs failed: the authorization server said access_denied',
      ),
    })
  })

  it('gives up at its time limit and when cancelled, and stops listening', async () => {
    const late = await listener(50)
    await expect(late.code()).rejects.toMatchObject({ code: 'timeout' })
    await expect(fetch(`${late.url}?code=c&state=${STATE}`)).rejects.toThrow()
    const cancelled = await listener()
    const abort = new AbortController()
    const waiting = cancelled.code(abort.signal)
    abort.abort()
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' })
  })

  it('reports a taken redirect port as a config problem to fix', async () => {
    const first = await listener()
    const port = Number(new URL(first.url).port)
    await expect(
      LoopbackRedirect.open({ serverId: 'docs', port, expectedState: () => STATE }),
    ).rejects.toMatchObject({
      code: 'config',
      message: expect.stringContaining('oauth.redirectPort'),
    })
  })

  it('reads the port back from a redirect URI it registered, and from nothing else', async () => {
    const redirect = await listener()
    expect(loopbackPort(redirect.url)).toBe(Number(new URL(redirect.url).port))
    for (const other of [
      'http://127.0.0.1/callback',
      'http://localhost:5000/callback',
      'https://127.0.0.1:5000/callback',
      'http://127.0.0.1:5000/other',
      'http://127.0.0.1:5000/callback?x=1',
      'not a url',
    ]) {
      expect(loopbackPort(other), other).toBeUndefined()
    }
  })
})
