import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoScript } from './support/demo/programs'
import { startCore, whenState, type LiveCore } from './support/core/live'
import { demoProfile } from './support/demo/profiles'

/**
 * What discovery reports about single sources reaches the source, before any search: the
 * rag-tools-v1 demo's archived `legacy-wiki`, whose search backend is offline, over stdio.
 */

let live: LiveCore

beforeAll(async () => {
  live = await startCore({
    wiki: {
      transport: 'stdio',
      command: process.execPath,
      args: [demoScript(), 'rag-tools-v1', '--stdio', '--sources', 'handbook,legacy-wiki'],
      dialect: 'rag-tools-v1',
      groups: ['users'],
    },
  })
  const carol = demoProfile('carol@example.com', 'carol', 'Carol')
  live.core.settings.saveProfile(carol)
  live.core.settings.setActive(carol.id)
  await whenState(live.core, ['wiki'])
})

afterAll(async () => {
  await live?.close()
})

describe('source status from discovery', () => {
  it('marks the archived source whose backend is offline, and only it', async () => {
    const { servers } = await live.core.services.discovery.run()
    const sources = servers[0]!.sources
    expect(servers[0]!.ok).toBe(true)
    expect(sources.find((s) => s.id === 'legacy-wiki')?.error).toMatchObject({
      code: 'server_error',
      message: expect.stringMatching(
        /backend_unavailable.*archived; its search backend is offline/,
      ),
    })
    expect(sources.find((s) => s.id === 'handbook')?.error).toBeUndefined()
  })
})
