import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { demoScript } from './support/demo/programs'
import { dispatch } from '#core/api/dispatch'
import { createHandlers } from '#core/api/handlers'
import { ragToolsV1Adapter } from '#core/dialects/rag-tools-v1'
import { startCore, whenState, type LiveCore } from './support/core/live'
import { ConsoleError } from '#shared/errors'
import type { OperationHealth, ServerHealth } from '#shared/model/server'
import type { Profile } from '#shared/model/user'
import { demoProfile } from './support/demo/profiles'

/**
 * A search the server answers with a refusal inside its reply (rag-tools-v1's
 * `unauthorized_user` envelope) counts in `pool:health` as a failed call of `search` with the
 * refusal's code, once, against the rag-tools-v1 demo over stdio.
 */

const CAROL = demoProfile('carol@example.com', 'carol', 'Carol')
/** Sees the server by group, but the server's directory does not know the user. */
const STRANGER: Profile = {
  id: 'stranger',
  name: 'Stranger',
  userId: 'stranger@elsewhere.example',
  sessionTags: [],
  groups: ['users'],
}

let live: LiveCore

beforeEach(async () => {
  live = await startCore({
    companyDocs: {
      transport: 'stdio',
      command: process.execPath,
      args: [demoScript(), 'rag-tools-v1', '--stdio'],
      dialect: 'rag-tools-v1',
      groups: ['users'],
    },
  })
  live.core.settings.saveProfile(CAROL)
  live.core.settings.saveProfile(STRANGER)
  await whenState(live.core, ['companyDocs'])
})

afterEach(async () => {
  await live?.close()
})

/** The server's health as the `pool:health` channel returns it. */
async function health(): Promise<ServerHealth> {
  const response = await dispatch(createHandlers(live.core), 'pool:health', {
    server: 'companyDocs',
  })
  if (!response.ok) throw new Error(`pool:health: ${response.error.message}`)
  return (response.value as ServerHealth[])[0]!
}

async function searchHealth(): Promise<OperationHealth | undefined> {
  return (await health()).operations.find((op) => op.operation === 'search')
}

let searches = 0
async function searchAs(profile: Profile) {
  live.core.settings.setActive(profile.id)
  const result = await live.core.services.search.run({
    searchId: `refusals-${++searches}`,
    query: 'paid time off',
    selection: { companyDocs: [] },
  })
  return result.servers[0]!
}

describe('refusals in health', () => {
  it('counts a search the server refuses as an unauthorized error of search, once', async () => {
    const refused = await searchAs(STRANGER)
    expect(refused).toMatchObject({ ok: false, error: { code: 'unauthorized' } })

    const search = await searchHealth()
    expect(search).toMatchObject({ calls: 1, errors: { unauthorized: 1 }, errorRate: 1 })
    expect(search?.latency.count).toBe(0)
    expect(search?.lastSuccessAt).toBeUndefined()
    expect(search?.lastError).toMatchObject({
      code: 'unauthorized',
      origin: 'server',
      server: 'companyDocs',
      message: expect.stringMatching(/reported unauthorized_user/),
    })
    const buckets = search?.series ?? []
    expect(buckets.reduce((sum, bucket) => sum + bucket.calls, 0)).toBe(1)
    expect(buckets.at(-1)?.errors).toEqual({ unauthorized: 1 })
    expect((await health()).overall.errors).toEqual({ unauthorized: 1 })
  })

  it('still counts a search the server answers as a success', async () => {
    const answered = await searchAs(CAROL)
    expect(answered.ok).toBe(true)

    const search = await searchHealth()
    expect(search).toMatchObject({ calls: 1, errors: {}, errorRate: 0 })
    expect(search?.latency.count).toBe(1)
    expect(search?.lastError).toBeUndefined()
  })

  it('keeps the rate right and the server ready when it refuses one user of two', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await searchAs(STRANGER)).ok).toBe(false)
      expect((await searchAs(CAROL)).ok).toBe(true)
    }
    const server = await health()
    const search = server.operations.find((op) => op.operation === 'search')
    expect(search).toMatchObject({ calls: 8, errors: { unauthorized: 4 }, errorRate: 0.5 })
    // A refusal is about the user's rights, not the server's health.
    expect(server.status.state).toBe('ready')
  })

  it('judges each of several concurrent searches on one server by its own reply', async () => {
    const session = await live.core.pool.session('companyDocs')
    const users = [CAROL, STRANGER, STRANGER, CAROL, STRANGER, CAROL, CAROL, STRANGER]
    const outcomes = await Promise.all(
      users.map((user) =>
        ragToolsV1Adapter
          .search(
            session,
            { query: 'expense policy', phrases: [], topK: 5, sources: [] },
            { operation: 'search', user },
          )
          .then(
            () => 'ok',
            (error: unknown) => ConsoleError.from(error).code,
          ),
      ),
    )
    expect(outcomes).toEqual(users.map((user) => (user === CAROL ? 'ok' : 'unauthorized')))
    const search = await searchHealth()
    expect(search).toMatchObject({ calls: 8, errors: { unauthorized: 4 }, errorRate: 0.5 })
    expect(search?.latency.count).toBe(4)
  })
})
