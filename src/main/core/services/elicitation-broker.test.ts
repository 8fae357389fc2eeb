import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InvokeChannel, InvokeResult } from '#shared/ipc/contract'
import type { IpcResponse } from '#shared/ipc/wire'
import type { PendingElicitation } from '#shared/ipc/elicitation'
import { SAFETY_NET_MS } from '#test/support/process/limits'
import { dispatch } from '../api/dispatch'
import { createHandlers, type Handlers } from '../api/handlers'
import { fixture } from '#test/support/pool/helpers'
import { MAX_PENDING_FORMS } from './elicitation-broker'
import { startCore, whenState, type LiveCore } from '#test/support/core/live'

/** Forms a real stdio server sends, answered the way the app's windows answer them: over IPC. */

let live: LiveCore
let handlers: Handlers
const requests: PendingElicitation[] = []
const closed: { id: string; reason: string }[] = []

async function ok<C extends InvokeChannel>(channel: C, request?: unknown) {
  const response = (await dispatch(handlers, channel, request)) as IpcResponse<InvokeResult<C>>
  if (!response.ok) throw new Error(`${channel}: ${JSON.stringify(response.error)}`)
  return response.value
}

/** Calls the fixture's `ask` tool; resolves with what its elicitation came back with. */
async function ask(form: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const result = await live.core.pool.callTool(
    'asker',
    'ask',
    { form },
    { operation: 'call', timeoutMs: SAFETY_NET_MS, ...(signal ? { signal } : {}) },
  )
  const block = (result.content as { type: string; text: string }[])[0]!
  return JSON.parse(block.text) as Record<string, unknown>
}

const nextRequest = async (): Promise<PendingElicitation> => {
  const seen = requests.length
  await expect.poll(() => requests.length, { timeout: SAFETY_NET_MS }).toBeGreaterThan(seen)
  return requests[requests.length - 1]!
}

beforeAll(async () => {
  live = await startCore(
    {
      asker: {
        transport: 'stdio',
        command: process.execPath,
        args: [fixture('elicit-stdio-server.mjs')],
      },
    },
    { elicit: 'windows' },
  )
  handlers = createHandlers(live.core)
  live.core.events.on('elicit:request', (form) => requests.push(form))
  live.core.events.on('elicit:closed', (event) => closed.push(event))
  await whenState(live.core, ['asker'])
})

afterAll(async () => {
  await live?.close()
})

describe('forms servers send, answered in the app', () => {
  it('reaches the windows, lists as pending, and the answer goes back to the server', async () => {
    const answer = ask('required')
    const form = await nextRequest()
    expect(form).toMatchObject({
      serverId: 'asker',
      message: 'Please fill in the required form',
      fields: [
        { name: 'name', kind: 'string', required: true },
        { name: 'team', kind: 'string', required: false, default: 'search' },
      ],
    })
    expect((await ok('elicit:pending')).map((f) => f.id)).toEqual([form.id])
    expect(
      await ok('elicit:answer', {
        id: form.id,
        answer: { action: 'accept', content: { name: 'Ada', team: 'search' } },
      }),
    ).toEqual({ answered: true })
    expect(await answer).toEqual({ action: 'accept', content: { name: 'Ada', team: 'search' } })
    expect(closed).toContainEqual({ id: form.id, reason: 'answered' })
    // The first answer counts: a second window's is refused.
    expect(await ok('elicit:answer', { id: form.id, answer: { action: 'decline' } })).toEqual({
      answered: false,
    })
    expect(await ok('elicit:pending')).toEqual([])
  })

  it('passes a decline on, and declines an answer that does not fit the form', async () => {
    const declined = ask('required')
    let form = await nextRequest()
    await ok('elicit:answer', { id: form.id, answer: { action: 'decline' } })
    expect(await declined).toEqual({ action: 'decline' })

    const misfit = ask('required')
    form = await nextRequest()
    // `name` is required: the pool checks the answer again and declines.
    await ok('elicit:answer', { id: form.id, answer: { action: 'accept', content: {} } })
    expect(await misfit).toEqual({ action: 'decline' })
  })

  it('withdraws a form from every window when the server stops waiting', async () => {
    const caller = new AbortController()
    const call = ask('required', caller.signal).catch((error: Error) => error)
    const form = await nextRequest()
    // The call is cancelled; the fixture's form is tied to it, so the server withdraws it.
    caller.abort()
    await expect
      .poll(() => closed, { timeout: SAFETY_NET_MS })
      .toContainEqual({
        id: form.id,
        reason: 'withdrawn',
      })
    expect(await ok('elicit:pending')).toEqual([])
    expect(await call).toBeInstanceOf(Error)
  })

  it('cancels forms past the limit at once instead of piling them up', async () => {
    const broker = live.core.elicitation!
    const signal = new AbortController()
    const held = Array.from({ length: MAX_PENDING_FORMS }, () =>
      broker.handler({ serverId: 'x', message: '', fields: [] }, signal.signal),
    )
    expect(broker.list()).toHaveLength(MAX_PENDING_FORMS)
    expect(await broker.handler({ serverId: 'x', message: '', fields: [] }, signal.signal)).toEqual(
      { action: 'cancel' },
    )
    signal.abort()
    expect(await Promise.all(held)).toEqual(held.map(() => ({ action: 'cancel' })))
    expect(broker.list()).toEqual([])
  })
})
