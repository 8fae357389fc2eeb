import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OAUTH_DEMO_CLIENT } from '../keys'
import { postJson, startDemo, type DemoProcess } from '#test/support/demo/programs'

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
}
const redirectUri = 'http://127.0.0.1:9/callback'

interface Tokens {
  access_token: string
  refresh_token: string
  scope: string
  id_token?: string
}

async function register(origin: string, redirect = redirectUri): Promise<string> {
  const response = await fetch(`${origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none' }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { client_id: string }).client_id
}

function authorizeUrl(
  origin: string,
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
): string {
  const url = new URL(`${origin}/authorize`)
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: `${origin}/mcp`,
    ...extra,
  }
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.href
}

/** Runs authorization code + PKCE as a client would; the `login_hint` approves at once. */
async function signIn(origin: string, scope?: string): Promise<Tokens> {
  const clientId = await register(origin)
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const extra = { login_hint: 'bob', ...(scope ? { scope } : {}) }
  const approved = await fetch(authorizeUrl(origin, clientId, challenge, extra), {
    redirect: 'manual',
  })
  expect(approved.status).toBe(302)
  const back = new URL(approved.headers.get('location')!)
  expect(back.searchParams.get('state')).toBe('st-1')
  const response = await fetch(`${origin}/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
      resource: `${origin}/mcp`,
    }),
  })
  expect(response.status).toBe(200)
  return { ...((await response.json()) as Tokens), client_id: clientId } as Tokens
}

describe('demo oauth server', () => {
  let demo: DemoProcess
  let origin: string

  beforeAll(async () => {
    demo = await startDemo(['oauth', '--port', '0', '--require-scope', 'rag:search'])
    origin = new URL(demo.url).origin
  })
  afterAll(() => demo?.stop())

  it('answers an unauthenticated request with 401 and where its metadata is', async () => {
    const reply = await postJson(demo.url, initialize)
    expect(reply.status).toBe(401)
    expect(reply.headers.get('www-authenticate')).toContain(
      `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    )
    const prm = (await (
      await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)
    ).json()) as { resource: string; authorization_servers: string[] }
    expect(prm.resource).toBe(`${origin}/mcp`)
    const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as {
      registration_endpoint: string
      code_challenge_methods_supported: string[]
    }
    expect(as.registration_endpoint).toBe(`${origin}/register`)
    expect(as.code_challenge_methods_supported).toEqual(['S256'])
  })

  it('guards the SSE endpoint with its own protected-resource metadata', async () => {
    const response = await fetch(`${origin}/sse`)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toContain(
      `${origin}/.well-known/oauth-protected-resource/sse`,
    )
    const tokens = await signIn(origin)
    const stream = await fetch(`${origin}/sse`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toContain('text/event-stream')
    await stream.body?.cancel()
  })

  it('serves the rag-tools-v1 tools to a signed-in client, and names the user in the id token', async () => {
    const tokens = await signIn(origin)
    const reply = await postJson(demo.url, initialize, {
      authorization: `Bearer ${tokens.access_token}`,
    })
    expect(reply.status).toBe(200)
    const claims = JSON.parse(
      Buffer.from(tokens.id_token!.split('.')[1]!, 'base64url').toString(),
    ) as { sub: string }
    expect(claims.sub).toBe('bob')
  })

  it('refuses a tool call without the step-up scope with 403 insufficient_scope', async () => {
    const base = await signIn(origin)
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'rag_discover_resources', arguments: { username: 'bob' } },
    }
    const refused = await postJson(demo.url, call, {
      authorization: `Bearer ${base.access_token}`,
    })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('www-authenticate')).toMatch(
      /insufficient_scope.*scope="rag:read rag:search"/,
    )
    const wider = await signIn(origin, 'rag:read rag:search')
    const allowed = await postJson(demo.url, call, {
      authorization: `Bearer ${wider.access_token}`,
    })
    expect(allowed.status).toBe(200)
  })

  it('rotates refresh tokens: the old one is refused after use', async () => {
    const tokens = await signIn(origin)
    const clientId = (tokens as unknown as { client_id: string }).client_id
    const refresh = (token: string): Promise<Response> =>
      fetch(`${origin}/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: clientId,
        }),
      })
    const first = await refresh(tokens.refresh_token)
    expect(first.status).toBe(200)
    expect((await first.json()) as Tokens).toMatchObject({ access_token: expect.any(String) })
    expect((await refresh(tokens.refresh_token)).status).toBe(400)
  })

  it('revokes a refresh token (RFC 7009): it is refused afterwards', async () => {
    const tokens = await signIn(origin)
    const clientId = (tokens as unknown as { client_id: string }).client_id
    const metadata = (await (
      await fetch(`${origin}/.well-known/oauth-authorization-server`)
    ).json()) as { revocation_endpoint: string }
    expect(metadata.revocation_endpoint).toBe(`${origin}/revoke`)
    const revoked = await fetch(metadata.revocation_endpoint, {
      method: 'POST',
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }),
    })
    expect(revoked.status).toBe(200)
    const refresh = await fetch(`${origin}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      }),
    })
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant')
  })

  it('allows any port on a registered loopback redirect (RFC 8252), unless told to match exactly', async () => {
    const strict = await startDemo(['oauth', '--port', '0', '--exact-redirect-uris'])
    try {
      for (const [server, exact] of [
        [origin, false],
        [new URL(strict.url).origin, true],
      ] as const) {
        const clientId = await register(server, 'http://127.0.0.1:5000/callback')
        const authorize = (port: number): Promise<Response> =>
          fetch(
            authorizeUrl(server, clientId, 'x'.repeat(43), {
              redirect_uri: `http://127.0.0.1:${port}/callback`,
              login_hint: 'bob',
            }),
            { redirect: 'manual' },
          )
        expect((await authorize(5000)).status, server).toBe(302)
        const otherPort = await authorize(5001)
        expect(otherPort.status, server).toBe(exact ? 400 : 302)
        if (exact) {
          expect(await otherPort.json()).toMatchObject({
            error_description: 'Unregistered redirect_uri',
          })
        }
      }
    } finally {
      await strict.stop()
    }
  })

  it('shows a consent page with an Approve button when no user is hinted', async () => {
    const clientId = await register(origin)
    const page = await fetch(authorizeUrl(origin, clientId, 'x'.repeat(43)))
    const html = await page.text()
    expect(html).toContain('<button type="submit">Approve</button>')
    const consent = /name="consent" value="([^"]+)"/.exec(html)![1]!
    const approve = (): Promise<Response> =>
      fetch(`${origin}/consent`, {
        method: 'POST',
        body: new URLSearchParams({ consent, user: 'carol' }),
        redirect: 'manual',
      })
    const approved = await approve()
    expect(approved.status).toBe(302)
    expect(new URL(approved.headers.get('location')!).searchParams.get('code')).toBeTruthy()
    expect((await approve()).status).toBe(400)
  })

  it('accepts the pre-registered confidential client only with its secret', async () => {
    const token = (secret: string): Promise<Response> =>
      fetch(`${origin}/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: 'nope',
          client_id: OAUTH_DEMO_CLIENT.clientId,
          client_secret: secret,
        }),
      })
    expect(((await (await token('wrong')).json()) as { error: string }).error).toBe(
      'invalid_client',
    )
    expect(
      ((await (await token(OAUTH_DEMO_CLIENT.clientSecret)).json()) as { error: string }).error,
    ).toBe('invalid_grant')
  })
})
