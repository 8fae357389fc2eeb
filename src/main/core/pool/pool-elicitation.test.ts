import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ElicitationHandler, ElicitationRequest } from './elicitation'
import { defaultsOf } from '#shared/model/elicitation'
import { NEVER_MS, SAFETY_NET_MS } from '#test/support/process/limits'
import {
  rejection,
  liveServerConfig,
  stdioFixture,
  textOf,
  useTestScope,
} from '#test/support/pool/helpers'

// A stdio server that sends `elicitation/create` with a named form, declared or not.
const asker = stdioFixture('asker', 'elicit-stdio-server.mjs')

const testPool = useTestScope().pool

/** Calls the fixture's `ask` tool and returns what its elicitation came back with. */
async function ask(handler: ElicitationHandler | undefined, form: string) {
  const { pool } = testPool({}, {}, undefined, handler ? { elicit: handler } : {})
  await pool.apply([asker])
  const session = await pool.session('asker')
  const result = await session.callTool('ask', { form }, { operation: 'call' })
  return { answer: JSON.parse(textOf(result)) as Record<string, unknown>, pool }
}

const acceptDefaults: ElicitationHandler = async (request) => ({
  action: 'accept',
  content: defaultsOf(request.fields),
})

describe('elicitation over a real stdio server', () => {
  it('answers a form with its defaults when the handler accepts them', async () => {
    const asked: ElicitationRequest[] = []
    const { answer } = await ask(async (request, signal) => {
      asked.push(request)
      return acceptDefaults(request, signal)
    }, 'defaults')
    expect(answer).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    })
    expect(asked[0]).toMatchObject({
      serverId: 'asker',
      message: 'Please fill in the defaults form',
    })
  })

  it('passes a decline on to the server', async () => {
    const { answer } = await ask(async () => ({ action: 'decline' }), 'defaults')
    expect(answer).toEqual({ action: 'decline' })
  })

  it('declines a form that is not flat primitives and says why in the protocol log', async () => {
    let asked = false
    const { answer, pool } = await ask(async () => {
      asked = true
      return { action: 'cancel' }
    }, 'nested')
    expect(answer).toEqual({ action: 'decline' })
    expect(asked).toBe(false)
    const notes = pool
      .protocol('asker')
      .list()
      .filter((e) => e.kind === 'note')
    expect(notes.map((e) => e.text)).toEqual([
      expect.stringMatching(/declined the elicitation of asker: property "address": type "object"/),
    ])
  })

  it('declines an accepted answer that leaves out a required field', async () => {
    const { answer, pool } = await ask(acceptDefaults, 'required')
    expect(answer).toEqual({ action: 'decline' })
    const notes = pool
      .protocol('asker')
      .list()
      .filter((e) => e.kind === 'note')
    expect(notes[0]?.text).toMatch(/does not fit the form: "name" is required/)
  })

  it('stops waiting for an answer when the server cancels its form, even its first request (id 0)', async () => {
    let aborted = false
    const call = new AbortController()
    const { pool } = testPool({}, {}, undefined, {
      elicit: (_request, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true
            resolve({ action: 'cancel' })
          })
          // Whoever started the call gives up on it while the form waits.
          call.abort()
        }),
    })
    await pool.apply([asker])
    const session = await pool.session('asker')
    // The fixture's form is tied to the call, so the server cancels the form.
    await expect(
      session.callTool('ask', { form: 'required' }, { operation: 'call', signal: call.signal }),
    ).rejects.toThrow(/cancel/i)
    await expect.poll(() => aborted, { timeout: SAFETY_NET_MS }).toBe(true)
  })

  it("holds the call's deadline while a person answers its form", async () => {
    // The person answers once a call started after this one, with the same budget, has timed
    // out: this call's budget is spent by then too, unless the time the form waits is not the
    // server's.
    const budget = { operation: 'call', timeoutMs: 300 } as const
    let later: string | undefined
    const { pool } = testPool({}, {}, undefined, {
      elicit: async (request, signal) => {
        later = (await rejection(pool.callTool('sleeper', 'sleep', { ms: NEVER_MS }, budget))).code
        return acceptDefaults(request, signal)
      },
    })
    await pool.apply([asker, stdioFixture('sleeper', 'stdio-server.mjs')])
    const [session] = await Promise.all([pool.session('asker'), pool.session('sleeper')])
    const result = await session.callTool('ask', { form: 'defaults' }, budget)
    expect(later).toBe('timeout')
    expect(JSON.parse(textOf(result))).toMatchObject({ action: 'accept' })
  })

  it('offers no elicitation without a handler: a server that asks anyway gets an error at once', async () => {
    const { answer, pool } = await ask(undefined, 'defaults')
    expect(answer).toEqual({
      error: { code: -32601, message: expect.stringMatching(/not found/i) },
    })
    const initialize = pool
      .protocol('asker')
      .list()
      .find((e) => e.method === 'initialize')
    expect(JSON.parse(initialize!.text).params.capabilities).toEqual({})
  })
})

describe('elicitation with server-everything over stdio', () => {
  const everything = join(
    dirname(
      createRequire(import.meta.url).resolve(
        '@modelcontextprotocol/server-everything/package.json',
      ),
    ),
    'dist/index.js',
  )
  const config = liveServerConfig({
    id: 'everything',
    command: process.execPath,
    args: [everything, 'stdio'],
  })

  async function toolNames(handler?: ElicitationHandler) {
    const { pool } = testPool({}, {}, undefined, handler ? { elicit: handler } : {})
    await pool.apply([config])
    const session = await pool.session('everything')
    return { session, names: session.tools.map((t) => t.name) }
  }

  it('declares form elicitation only with a handler (its elicitation tool shows up then)', async () => {
    expect((await toolNames()).names).not.toContain('trigger-elicitation-request')
    const { session, names } = await toolNames(async (request) => ({
      action: 'accept',
      content: { ...defaultsOf(request.fields), name: 'Ada' },
    }))
    expect(names).toContain('trigger-elicitation-request')
    const result = await session.callTool('trigger-elicitation-request', {}, { operation: 'call' })
    const text = JSON.stringify(result.content)
    expect(text).toMatch(/User provided the requested information/)
    expect(text).toMatch(/Name: Ada/)
    expect(text).toMatch(/Favorite Integer: 42/)
  })
})
