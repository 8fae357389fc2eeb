import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../../../shared/model/operations'
import { testConfig } from '../../dialects/testing/recording-session'
import { adapterFor } from '../../dialects/registry'
import type { ServerCall } from '../server-calls'
import { createProbe } from './probe'

/** Doctor's raw HTTP probe against a real loopback server that echoes what it received. */

let server: Server
let url: string
let received: IncomingHttpHeaders | undefined

beforeAll(async () => {
  server = createServer((req, res) => {
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

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function probeFor(audit: AuditEntry[]) {
  const config = { ...testConfig('wire'), transport: 'http' as const, url }
  const session = { serverId: 'wire', config, tools: [] } as unknown as ServerCall['session']
  const call: ServerCall = {
    session,
    adapter: adapterFor('ragbox'),
    dialect: { id: 'ragbox', source: 'config', reason: 'test' },
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

  it('sends no header of the config or the user when bare', async () => {
    await probeFor([]).post!({ method: 'tools/list' }, { bare: true })
    expect(received?.['x-api-key']).toBeUndefined()
    expect(received?.['x-user-id']).toBeUndefined()
  })
})
