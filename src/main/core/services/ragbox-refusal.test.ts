import { afterEach, describe, expect, it } from 'vitest'
import { startQuirkyServer, type QuirkyServer } from '../pool/fixtures/quirky-http'
import { startCore, whenState, type LiveCore } from './testing/live'

let server: QuirkyServer | undefined
let live: LiveCore | undefined

afterEach(async () => {
  await live?.close()
  await server?.close()
  live = server = undefined
})

describe('a RAGbox -32000 without auth words', () => {
  it('is recorded in health and audit as the unauthorized the user sees', async () => {
    // HTTP 200 and a message that says nothing about keys: only the RAGbox code tells.
    server = await startQuirkyServer({
      extraTools: ['search_documents'],
      rpcErrors: { search_documents: { code: -32000, message: 'Vault sealed for this caller' } },
    })
    live = await startCore({ box: { transport: 'http', url: server.url, dialect: 'ragbox' } })
    await whenState(live.core, ['box'])

    const result = await live.core.services.search.run({ searchId: 's1', query: 'vpn' })
    expect(result.servers[0]).toMatchObject({
      server: 'box',
      ok: false,
      error: { code: 'unauthorized' },
    })
    await live.core.services.idle()

    const search = live.core.pool.health('box')[0]!.operations.find((o) => o.operation === 'search')
    expect(search?.errors).toEqual({ unauthorized: 1 })
    const lines = live.auditLines().filter((line) => line.operation === 'search')
    expect(lines.map((line) => line.errorCode)).toEqual(['unauthorized'])
  })
})

describe('a hand-made call to a RAGbox server answered with -32000', () => {
  it('fails as unauthorized and is recorded so in health and audit', async () => {
    server = await startQuirkyServer({
      extraTools: ['search_documents'],
      rpcErrors: { search_documents: { code: -32000, message: 'Vault sealed for this caller' } },
    })
    live = await startCore({ box: { transport: 'http', url: server.url, dialect: 'ragbox' } })
    await whenState(live.core, ['box'])

    const call = live.core.workbench.call({
      server: 'box',
      tool: 'search_documents',
      arguments: { query: 'vpn' },
      skipValidation: true,
    })
    await expect(call).rejects.toMatchObject({ code: 'unauthorized' })
    await live.core.services.idle()
    await live.core.workbench.idle()

    const health = live.core.pool.health('box')[0]!.operations
    expect(health.find((o) => o.operation === 'workbench')?.errors).toEqual({ unauthorized: 1 })
    const lines = live.auditLines().filter((line) => line.operation === 'workbench')
    expect(lines.map((line) => line.errorCode)).toEqual(['unauthorized'])
  })
})
