import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandlers } from '../api/handlers'
import { dispatch } from '../api/dispatch'
import type { InvokeResult } from '#shared/ipc/contract'
import { fixtureEntry, startCore, whenState, type LiveCore } from '#test/support/core/live'

/** The operations over the IPC contract: validation, shapes and redaction as a renderer sees them. */
let live: LiveCore
let call: (channel: string, request?: unknown) => ReturnType<typeof dispatch>

beforeAll(async () => {
  live = await startCore({ fast: fixtureEntry(['--name', 'fast']) })
  await whenState(live.core, ['fast'])
  const handlers = createHandlers(live.core)
  call = (channel, request) => dispatch(handlers, channel, request)
})

afterAll(() => live?.close())

describe('operations over IPC', () => {
  it('sends the query exactly as typed as phrase 0', async () => {
    const response = await call('search:run', { searchId: 's1', query: '  VPN  setup ' })
    expect(response.ok).toBe(true)
    const result = (response as { value: InvokeResult<'search:run'> }).value
    expect(result.phrases[0]).toBe('  VPN  setup ')
    expect(result.servers[0]).toMatchObject({ server: 'fast', ok: true, count: 5 })
  })

  it('refuses a blank query and an access target with nothing to check, saying why', async () => {
    const blank = await call('search:run', { searchId: 's2', query: '   ' })
    expect(blank).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    expect(JSON.stringify(blank)).toMatch(/the query is empty/)
    const nothing = await call('access:check', { target: { server: 'fast' } })
    expect(nothing).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
  })

  it('checks a hit passed as search returned it', async () => {
    const response = await call('access:check', {
      target: { hit: { server: 'fast', id: 'fast-0', uri: 'file:///etc/passwd', title: 'x' } },
    })
    expect(response).toMatchObject({
      ok: true,
      value: { verdict: 'invalid_url', server: 'fast', segmentId: 'fast-0' },
    })
  })

  it('cancels only a search that is running', async () => {
    expect(await call('search:cancel', { searchId: 'nothing-runs' })).toEqual({
      ok: true,
      value: { cancelled: false },
    })
  })

  it('lists and exports the audit log', async () => {
    await live.core.services.idle()
    const listed = await call('audit:list', { server: 'fast', operation: 'search', limit: 1 })
    expect(listed).toMatchObject({
      ok: true,
      value: { entries: [{ server: 'fast', operation: 'search' }], skipped: 0 },
    })
    const exported = await call('audit:export', { format: 'csv', filter: { server: 'fast' } })
    const value = (exported as { value: InvokeResult<'audit:export'> }).value
    expect(value.fileName).toMatch(/^rag-console-audit-.*\.csv$/)
    expect(value.mime).toBe('text/csv')
    expect(value.text.split('\n')[0]).toBe(
      'at,user,server,operation,tool,sources,outcome,errorCode,latencyMs,resultCount,verdict,automatic,expectedError',
    )
  })
})
