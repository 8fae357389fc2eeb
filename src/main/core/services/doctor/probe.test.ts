import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntry } from '#shared/model/operations'
import { SAFETY_NET_MS } from '#test/support/process/limits'
import { testConfig } from '#test/support/dialects/recording-session'
import { adapterFor } from '../../dialects/registry'
import type { ServerCall } from '../server-calls'
import { createProbe } from './probe'

/** Doctor's raw HTTP probe against a real loopback server that echoes what it received. */

let server: Server
let url: string
let received: IncomingHttpHeaders | undefined

/** Whether the endless reply was cut off by the client before it ended. */
let endlessCut = false

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/endless') return endless(res)
    received = req.headers
    req.resume()
    req.on('end', () => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': 'session=cookie-secret-value; HttpOnly',
        'x-ratelimit-remaining': '7',
      })
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [] } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
})

/** A reply that never ends: 64 KiB chunks for as long as the client reads. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' })
  const chunk = 'x'.repeat(65_536)
  let sent = 0
  res.on('close', () => (endlessCut = sent < 2_000))
  const pump = (): void => {
    while (sent < 2_000 && res.write(chunk)) sent++
    if (sent >= 2_000) res.end()
    else res.once('drain', pump)
  }
  pump()
}

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function probeFor(audit: AuditEntry[], family: 'rag-search' | 'ragbox' = 'rag-search') {
  const config = { ...testConfig('wire'), transport: 'http' as const, url, dialect: family }
  const session = { serverId: 'wire', config, tools: [] } as unknown as ServerCall['session']
  const call: ServerCall = {
    session,
    adapter: adapterFor(family),
    dialect: { id: family, source: 'config', reason: 'test' },
    options: { operation: 'doctor' },
  }
  const user = { userId: 'alice@example.com', sessionTags: ['department:sales'], groups: [] }
  const resolved = { url, headers: { 'X-API-Key': 'key-secret-value' }, env: {}, missing: [] }
  const deps = { call, user, resolved, audit: { record: (e: AuditEntry) => audit.push(e) } }
  return createProbe(deps, new AbortController().signal, 5_000)
}

describe('Doctor raw HTTP probe', () => {
  it('sends the config and user headers, shows neither credential nor cookie, and audits it', async () => {
    const audit: AuditEntry[] = []
    const sent = await probeFor(audit).post!({ method: 'tools/list' })
    expect(received).toMatchObject({
      'x-api-key': 'key-secret-value',
      'x-user-id': 'alice@example.com',
      'x-session-tags': '["department:sales"]',
    })
    expect(sent.reply).toMatchObject({
      status: 200,
      headers: { 'set-cookie': '(not shown)', 'x-ratelimit-remaining': '7' },
      body: { result: { tools: [] } },
    })
    expect(sent.request).toMatchObject({
      headers: { 'X-API-Key': '(from the config)', 'x-user-id': 'alice@example.com' },
    })
    expect(JSON.stringify(sent)).not.toMatch(/key-secret-value|cookie-secret-value/)
    expect(audit).toEqual([
      expect.objectContaining({
        server: 'wire',
        operation: 'doctor',
        tool: 'tools/list',
        outcome: 'ok',
      }),
    ])
  })

  it('sends no identity headers to a server whose family does not define them', async () => {
    const sent = await probeFor([], 'ragbox').post!({ method: 'tools/list' })
    expect(received).toMatchObject({ 'x-api-key': 'key-secret-value' })
    expect(Object.keys(received!)).not.toContain('x-user-id')
    expect(Object.keys(received!)).not.toContain('x-session-tags')
    expect(sent.request).toMatchObject({ headers: { 'X-API-Key': '(from the config)' } })
  })

  it('reads at most 1 MB of a reply that does not end, and stops the download', async () => {
    const sent = await probeFor([]).post!(
      { method: 'tools/list' },
      { url: url.replace('/mcp', '/endless') },
    )
    expect(typeof sent.reply?.body).toBe('string')
    expect((sent.reply!.body as string).length).toBeLessThanOrEqual(1_000_000)
    await expect.poll(() => endlessCut, { timeout: SAFETY_NET_MS }).toBe(true)
  })

  it('sends no header of the config or the user when bare', async () => {
    await probeFor([]).post!({ method: 'tools/list' }, { bare: true })
    expect(received?.['x-api-key']).toBeUndefined()
    expect(received?.['x-user-id']).toBeUndefined()
  })
})
