import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import type { SearchReply } from '#shared/ipc/rag'
import type { ServerSearchResult } from '#shared/model/operations'
import {
  fixtureEntry,
  startCore,
  startHttpFixture,
  whenState,
  type LiveCore,
  type Started,
} from '#test/support/core/live'
import type { BrowserHost } from './server'
import { connect, failOnUncaught, request, startWireHost } from '#test/support/host/live-host'
import { SAFETY_NET_MS } from '#test/support/process/limits'

/**
 * What a search sends a page over the host's WebSocket, against fixture servers: two over
 * streamable HTTP, one over stdio.
 */
let live: LiveCore
let fixture: Started
let host: BrowserHost
const SECRET = 'wire-secret-0123456789'

beforeAll(async () => {
  fixture = await startHttpFixture(['--name', 'wire', '--hits', '30'])
  live = await startCore({
    a: { url: fixture.url, dialect: 'rag-tools-v1', timeoutMs: SAFETY_NET_MS },
    b: { url: fixture.url, dialect: 'rag-tools-v1', timeoutMs: SAFETY_NET_MS },
    c: fixtureEntry(['--name', 'local', '--hits', '7']),
  })
  await whenState(live.core, ['a', 'b', 'c'])
  live.core.redactor.add(SECRET)
  host = await startWireHost(live.core)
})

afterAll(async () => {
  await host?.close()
  await live?.close()
  await fixture?.stop()
})

failOnUncaught()

interface Wire {
  progress: ServerSearchResult[]
  reply: SearchReply
}

/** Runs a search from a page's socket and returns every message about it, parsed. */
async function search(ws: WebSocket, body: Record<string, unknown>): Promise<Wire> {
  const progress: ServerSearchResult[] = []
  ws.on('message', (data) => {
    const { event } = JSON.parse(data.toString()) as {
      event?: { name: string; payload: { searchId: string; result: ServerSearchResult } }
    }
    if (event?.name === 'search:progress' && event.payload.searchId === body.searchId) {
      progress.push(event.payload.result)
    }
  })
  const response = (await request(ws, 'search:run', body)) as { ok: boolean; value: SearchReply }
  expect(response.ok).toBe(true)
  return { progress, reply: response.value }
}

describe('a search on the wire to a page', () => {
  it('sends each hit once, in its server’s progress event; the streamed reply sums the parts up', async () => {
    const ws = await connect(host)
    const { progress, reply } = await search(ws, {
      searchId: 'streamed',
      query: 'vpn',
      topK: 30,
      streamed: true,
    })
    expect(progress.map((p) => [p.server, p.hits.length]).sort()).toEqual([
      ['a', 30],
      ['b', 30],
      ['c', 7],
    ])
    expect(reply.servers).toEqual(
      ['a', 'b', 'c'].map((server) => ({
        server,
        ok: true,
        status: 'ready',
        latencyMs: expect.any(Number),
        count: server === 'c' ? 7 : 30,
        streamed: true,
      })),
    )
    // The merged list, main's fusion, is cut to top k, without where each hit was found: the
    // parts say it.
    expect(reply.hits).toHaveLength(30)
    expect(reply.hits.filter((hit) => 'foundIn' in hit)).toEqual([])
    ws.close()
  })

  it('still sends every part in full in the reply to a caller that does not fold progress', async () => {
    const ws = await connect(host)
    const { reply } = await search(ws, { searchId: 'whole', query: 'vpn', topK: 5 })
    expect(reply.servers.map((s) => ('hits' in s ? s.hits.length : 'none'))).toEqual([5, 5, 5])
    expect(reply.hits.every((hit) => (hit.foundIn?.length ?? 0) > 0)).toBe(true)
    ws.close()
  })

  it('carries no raw payloads; the page asks for one hit’s, with secrets redacted', async () => {
    const ws = await connect(host)
    const query = `vpn ${SECRET}`
    const { progress, reply } = await search(ws, { searchId: 'raw', query, topK: 3 })
    const hits = [
      ...progress.flatMap((p) => p.hits),
      ...reply.servers.flatMap((s) => ('hits' in s ? s.hits : [])),
      ...reply.hits,
    ]
    expect(hits).toHaveLength(9 + 9 + 3)
    expect(hits.filter((h) => 'raw' in h)).toEqual([])

    const hit = progress.find((p) => p.server === 'c')!.hits[1]!
    const raw = (await request(ws, 'search:raw', {
      searchId: 'raw',
      server: 'c',
      sourceId: hit.sourceId,
      hitId: hit.id,
    })) as { ok: boolean; value: { held: boolean; raw: { id: string; snippet: string } } }
    expect(raw).toMatchObject({ ok: true, value: { held: true, raw: { id: 'local-1' } } })
    expect(raw.value.raw.snippet).toContain('vpn [redacted]')
    expect(JSON.stringify(raw)).not.toContain(SECRET)
    ws.close()
  })

  it('answers held: false for a hit of a search main does not hold', async () => {
    const ws = await connect(host)
    expect(
      await request(ws, 'search:raw', { searchId: 'never-ran', server: 'a', hitId: 'wire-0' }),
    ).toEqual({ ok: true, value: { held: false } })
    ws.close()
  })

  it('leaves the raw payloads in the hits of a search run on the core directly (CLI, evaluation)', async () => {
    const result = await live.core.services.search.run({ searchId: 'direct', query: 'vpn' })
    const hits = [...result.servers.flatMap((s) => s.hits), ...result.hits]
    expect(hits.length).toBeGreaterThan(0)
    expect(hits.every((h) => (h.raw as { id?: string } | undefined)?.id === h.id)).toBe(true)
  })
})
