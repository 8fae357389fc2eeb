import { afterEach, describe, expect, it } from 'vitest'
import { startQuirkyServer, type QuirkyServer } from '#test/support/servers/quirky-http'
import { startCore, whenState, type LiveCore } from '#test/support/core/live'

let server: QuirkyServer | undefined
let live: LiveCore | undefined

afterEach(async () => {
  await live?.close()
  await server?.close()
  live = server = undefined
})

/**
 * A RAGbox server whose search_documents fails with -32000, HTTP 200 and a message that says
 * nothing about keys: only the RAGbox code tells.
 */
async function startSealedBox(): Promise<LiveCore> {
  server = await startQuirkyServer({
    extraTools: ['search_documents'],
    rpcErrors: { search_documents: { code: -32000, message: 'Vault sealed for this caller' } },
  })
  live = await startCore({ box: { transport: 'http', url: server.url, dialect: 'ragbox' } })
  await whenState(live.core, ['box'])
  return live
}

describe('a RAGbox -32000 without auth words', () => {
  it('is recorded in health and audit as the unauthorized the user sees', async () => {
    const box = await startSealedBox()

    const result = await box.core.services.search.run({ searchId: 's1', query: 'vpn' })
    expect(result.servers[0]).toMatchObject({
      server: 'box',
      ok: false,
      error: { code: 'unauthorized' },
    })
    await box.core.services.idle()

    const search = box.core.pool.health('box')[0]!.operations.find((o) => o.operation === 'search')
    expect(search?.errors).toEqual({ unauthorized: 1 })
    const lines = box.auditLines().filter((line) => line.operation === 'search')
    expect(lines.map((line) => line.errorCode)).toEqual(['unauthorized'])
  })
})

describe('a hand-made call to a RAGbox server answered with -32000', () => {
  it('fails as unauthorized and is recorded so in health and audit', async () => {
    const box = await startSealedBox()

    const call = box.core.workbench.call({
      server: 'box',
      tool: 'search_documents',
      arguments: { query: 'vpn' },
      skipValidation: true,
    })
    await expect(call).rejects.toMatchObject({ code: 'unauthorized' })
    await box.core.services.idle()
    await box.core.workbench.idle()

    const health = box.core.pool.health('box')[0]!.operations
    expect(health.find((o) => o.operation === 'workbench')?.errors).toEqual({ unauthorized: 1 })
    const lines = box.auditLines().filter((line) => line.operation === 'workbench')
    expect(lines.map((line) => line.errorCode)).toEqual(['unauthorized'])
  })
})
