import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_USERS } from '../access'
import { RAG_SEARCH_API_KEY } from '../keys'
import {
  OWN_DOC_HOST,
  eventually,
  postJson,
  startDemo,
  toolCallMessage,
  type DemoProcess,
} from '#test/support/demo/programs'
import type { AccessAnswer, Segment } from './segments'

const auth = { authorization: `Bearer ${RAG_SEARCH_API_KEY}` }
const user = (id: string): Record<string, string> => {
  const profile = DEMO_USERS.find((candidate) => candidate.id === id)!
  return { ...auth, 'x-user-id': id, 'x-session-tags': JSON.stringify(profile.sessionTags) }
}

describe('rag-search demo server (built, streamable HTTP)', () => {
  let server: DemoProcess

  const search = async (
    headers: Record<string, string>,
    ...phrases: string[]
  ): Promise<Segment[]> => {
    const reply = await postJson(
      server.url,
      toolCallMessage('rag_search', { search_phrases: phrases }),
      headers,
    )
    expect(reply.status).toBe(200)
    return (reply.body!.result as { segments: Segment[] }).segments
  }
  const verify = async (
    headers: Record<string, string>,
    segmentUid: string,
  ): Promise<AccessAnswer> => {
    const reply = await postJson(
      server.url,
      toolCallMessage('verify_document_access', { segment_uid: segmentUid }),
      headers,
    )
    return reply.body!.result as AccessAnswer
  }

  beforeAll(async () => {
    server = await startDemo(['rag-search', '--port', '0', ...OWN_DOC_HOST])
  })
  afterAll(() => server?.stop())

  it('prints the docs and ready lines', () => {
    expect(server.docs).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
  })

  it('refuses calls without the Bearer key with 401', async () => {
    const missing = await postJson(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/)
    const wrong = await postJson(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: 'Bearer nope' },
    )
    expect(wrong.status).toBe(401)
  })

  it('returns {status, segments} as the JSON-RPC result itself, not a CallToolResult', async () => {
    const reply = await postJson(
      server.url,
      toolCallMessage('rag_search', { search_phrases: ['paid time off'] }, 'request-123'),
      user('bob@example.com'),
    )
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: 'request-123' })
    const result = reply.body!.result as Record<string, unknown>
    expect(Object.keys(result).sort()).toEqual(['segments', 'status'])
    expect(result.status).toBe('success')
    const segments = result.segments as Segment[]
    expect(segments.length).toBeGreaterThan(0)
    expect(segments.length).toBeLessThanOrEqual(20)
    for (const segment of segments) {
      expect(typeof segment.segment_uid).toBe('string')
      expect(typeof segment.source_file_name).toBe('string')
      expect(typeof segment.source_file_type).toBe('string')
      expect(typeof segment.raw_text).toBe('string')
      if (segment.headline) expect(segment.headline.split(/\s+/).length).toBeLessThanOrEqual(10)
    }
  })

  it('leaves headline and summary out of some segments so clients derive them', async () => {
    const [badge] = await search(
      user('bob@example.com'),
      'badge reader blinks red',
      'badge readers floors 3 and 4',
    )
    expect(badge?.segment_uid).toBe('it-scan-0042#0')
    expect(badge).not.toHaveProperty('headline')
    expect(badge).not.toHaveProperty('segment_summary')
    expect(badge).not.toHaveProperty('source_url')
    const japanese = (await search(user('bob@example.com'), 'VPN接続の設定方法')).find((s) =>
      s.segment_uid.startsWith('it-vpn-setup-ja'),
    )
    expect(japanese).toBeDefined()
    expect(japanese).not.toHaveProperty('headline')
  })

  it('returns the planted prompt injection as ordinary data', async () => {
    const segments = await search(
      user('bob@example.com'),
      'printer driver update',
      'printer password expired',
    )
    const planted = segments.find((segment) =>
      segment.segment_uid.startsWith('it-printer-vendor-notes'),
    )
    expect(planted).toBeDefined()
    const all = segments.filter((segment) =>
      segment.segment_uid.startsWith('it-printer-vendor-notes'),
    )
    expect(all.some((segment) => /ignore previous instructions/i.test(segment.raw_text))).toBe(true)
  })

  it('filters by the groups the session tags grant', async () => {
    const query = ['master services agreement liability cap']
    const asAlice = await search(user('alice@example.com'), ...query)
    const asCarol = await search(user('carol@example.com'), ...query)
    expect(asAlice.some((segment) => segment.segment_uid.startsWith('lg-msa-'))).toBe(false)
    expect(asCarol.some((segment) => segment.segment_uid.startsWith('lg-msa-'))).toBe(true)
  })

  it('hides a document revoked for the x-user-id even when the tags allow it', async () => {
    const query = 'postmortem incident response outage'
    const engineer = { ...auth, 'x-session-tags': '["department:engineering"]' }
    const asBob = await search({ ...engineer, 'x-user-id': 'bob@example.com' }, query)
    const asOther = await search({ ...engineer, 'x-user-id': 'erin@example.com' }, query)
    expect(asBob.some((segment) => segment.segment_uid.startsWith('en-incidents-postmortem'))).toBe(
      false,
    )
    expect(
      asOther.some((segment) => segment.segment_uid.startsWith('en-incidents-postmortem')),
    ).toBe(true)
  })

  it('refuses malformed x-session-tags and bad phrases with JSON-RPC errors', async () => {
    const badTags = await postJson(
      server.url,
      toolCallMessage('rag_search', { search_phrases: ['x'] }),
      { ...auth, 'x-session-tags': 'sales' },
    )
    expect(badTags.status).toBe(400)
    expect(badTags.body).toMatchObject({ error: { code: -32600 } })
    const six = await postJson(
      server.url,
      toolCallMessage('rag_search', { search_phrases: ['a', 'b', 'c', 'd', 'e', 'f'] }),
      auth,
    )
    expect(six.body).toMatchObject({ error: { code: -32602 } })
  })

  it('verify_document_access reports deletion, revocation and group denial for the current user', async () => {
    expect(await verify(user('bob@example.com'), 'it-backups-faq#0')).toEqual({
      has_access: false,
      refreshed_url: null,
      error: 'Document has been deleted',
    })
    expect((await verify(user('bob@example.com'), 'en-incidents-postmortem#0')).error).toMatch(
      /revoked/,
    )
    const alice = await verify(user('alice@example.com'), 'lg-msa-overview#0')
    expect(alice.has_access).toBe(false)
    expect(alice.error).toMatch(/restricted to legal, admin/)
    expect((await verify(auth, 'nope#0')).error).toMatch(/Unknown segment/)
  })

  it('verify_document_access hands out a freshly signed URL that opens where the old one expired', async () => {
    const [stale] = (
      await search(user('carol@example.com'), 'master services agreement standard clauses')
    ).filter((segment) => segment.segment_uid.startsWith('lg-msa-clauses'))
    expect(stale?.source_url).toBeDefined()
    const old = await fetch(stale!.source_url!)
    expect(old.status).toBe(403)
    expect(old.headers.get('x-doc-host-reason')).toBe('expired')
    const answer = await verify(user('carol@example.com'), stale!.segment_uid)
    expect(answer).toMatchObject({ has_access: true, access_level: 'admin', error: null })
    expect(answer.refreshed_url).not.toBe(stale!.source_url)
    expect((await fetch(answer.refreshed_url!)).status).toBe(200)
  })

  it('works with the SDK client, which keeps the non-standard keys', async () => {
    const client = new Client({ name: 'demo-test', version: '1.0.0' })
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: user('bob@example.com') },
    })
    await client.connect(transport)
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(['rag_search', 'verify_document_access'])
      const result = await client.callTool({
        name: 'rag_search',
        arguments: { search_phrases: ['vpn'] },
      })
      expect(result.status).toBe('success')
      expect(Array.isArray(result.segments)).toBe(true)
    } finally {
      await client.close()
    }
  })
})

describe('rag-search signed links with a short TTL', () => {
  let server: DemoProcess
  beforeAll(async () => {
    server = await startDemo(['rag-search', '--port', '0', ...OWN_DOC_HOST, '--ttl', '2'])
  })
  afterAll(() => server?.stop())

  it('issues links that open, then expire, then are refreshed by verify_document_access', async () => {
    const headers = user('bob@example.com')
    const reply = await postJson(
      server.url,
      toolCallMessage('rag_search', { search_phrases: ['incident response runbook'] }),
      headers,
    )
    const segment = (reply.body!.result as { segments: Segment[] }).segments.find((s) =>
      s.source_url?.includes('sig='),
    )
    expect(segment).toBeDefined()
    const url = segment!.source_url!
    expect((await fetch(url)).status).toBe(200)
    const expired = await eventually(async () => {
      const response = await fetch(url)
      return response.status === 403 ? response : undefined
    })
    expect(expired.headers.get('x-doc-host-reason')).toBe('expired')
    const verified = await postJson(
      server.url,
      toolCallMessage('verify_document_access', { segment_uid: segment!.segment_uid }),
      headers,
    )
    const refreshed = (verified.body!.result as AccessAnswer).refreshed_url!
    expect((await fetch(refreshed)).status).toBe(200)
  })
})
