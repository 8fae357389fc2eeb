import { describe, expect, it } from 'vitest'
import type { GenericSearchMapping } from '#shared/config/schema'
import { rejection, stdioFixture, useTestScope } from '#test/support/pool/helpers'
import { genericAdapter } from './generic'

const testPool = useTestScope().pool
const input = { query: 'leave', phrases: [], topK: 5, sources: [] }

/** A real stdio server whose `echo` tool replies with this JSON as its text block. */
async function mapped(mapping: GenericSearchMapping) {
  const { pool } = testPool()
  await pool.apply([{ ...stdioFixture('kb', 'stdio-server.mjs'), dialect: { search: mapping } }])
  const session = await pool.session('kb')
  const search = () => pool.health('kb')[0]!.operations.find((op) => op.operation === 'search')
  return { session, search }
}

const replying = (reply: unknown, extra: Partial<GenericSearchMapping> = {}) => ({
  tool: 'echo',
  arguments: { text: JSON.stringify(reply) },
  hits: 'items',
  ...extra,
})

describe('a generic mapping over a real server', () => {
  it('counts a refusal at its mapped error path as a failed search', async () => {
    const reply = { items: [], error: { message: 'Vault sealed for this caller' } }
    const { session, search } = await mapped(replying(reply, { error: 'error.message' }))
    const error = await rejection(genericAdapter.search(session, input, { operation: 'search' }))
    expect(error).toMatchObject({ code: 'tool_error', origin: 'server', server: 'kb' })
    expect(error.message).toMatch(/Vault sealed for this caller/)
    expect(search()).toMatchObject({ calls: 1, errors: { tool_error: 1 }, errorRate: 1 })
  })

  it('keeps the code the refusal words name', async () => {
    const reply = { items: [], error: 'Forbidden: no access to this index' }
    const { session, search } = await mapped(replying(reply, { error: 'error' }))
    const error = await rejection(genericAdapter.search(session, input, { operation: 'search' }))
    expect(error.code).toBe('unauthorized')
    expect(search()).toMatchObject({ errors: { unauthorized: 1 } })
  })

  it('counts a reply with an empty error field as a success', async () => {
    const reply = { items: [{ id: 'a', title: 'A' }], error: null }
    const { session, search } = await mapped(replying(reply, { error: 'error' }))
    const output = await genericAdapter.search(session, input, { operation: 'search' })
    expect(output.hits.map((hit) => hit.id)).toEqual(['a'])
    expect(search()).toMatchObject({ calls: 1, errors: {}, errorRate: 0 })
  })

  it('counts an isError tool result as a failure', async () => {
    const { session, search } = await mapped({ tool: 'fail', hits: 'items' })
    const error = await rejection(genericAdapter.search(session, input, { operation: 'search' }))
    expect(error.code).toBe('tool_error')
    expect(search()).toMatchObject({ calls: 1, errors: { tool_error: 1 } })
  })
})
