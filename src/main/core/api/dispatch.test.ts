import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import type { Core } from '../core'
import { dispatch } from './dispatch'
import { SecretRedactor } from '../secrets/redactor'
import { createHandlers, RESPONSE_REDACTOR, type Handlers } from './handlers'

const fakeInfo = { productName: 'RAG Console' }
const handlers = createHandlers({ info: () => fakeInfo } as unknown as Core)

describe('dispatch', () => {
  it('returns the handler value in an ok envelope', async () => {
    expect(await dispatch(handlers, 'app:info', undefined)).toEqual({ ok: true, value: fakeInfo })
  })

  it('rejects a channel the contract does not define', async () => {
    const response = await dispatch(handlers, 'app:quit', undefined)
    expect(response).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
  })

  it('rejects inherited object keys as channels', async () => {
    const response = await dispatch(handlers, 'constructor', undefined)
    expect(response).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
  })

  it('rejects a request that does not match the channel schema', async () => {
    const response = await dispatch(handlers, 'app:open-external', { href: 'x' })
    expect(response.ok).toBe(false)
    if (!response.ok)
      expect(response.error.message).toMatch(/app:open-external: invalid request: url/)
  })

  it('keeps the string code and details of a ConsoleError', async () => {
    const failing = {
      ...handlers,
      'app:info': () => {
        throw new ConsoleError({
          code: 'not_found',
          message: 'gone',
          server: 's1',
          details: { a: 1 },
        })
      },
    } as Handlers
    expect(await dispatch(failing, 'app:info', undefined)).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'gone', server: 's1', details: { a: 1 } },
    })
  })

  it('turns any other throw into an internal error', async () => {
    const failing = {
      ...handlers,
      'app:info': () => {
        throw new TypeError('boom')
      },
    } as Handlers
    expect(await dispatch(failing, 'app:info', undefined)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'boom' },
    })
  })

  it('turns a response that cannot be redacted into an internal error, secrets still blanked', async () => {
    const redactor = new SecretRedactor()
    redactor.add('s3cret-value-42')
    const unreadable = {
      ...handlers,
      'app:info': () => ({
        toJSON() {
          throw new Error('cannot read s3cret-value-42')
        },
      }),
      [RESPONSE_REDACTOR]: redactor,
    } as unknown as Handlers
    const response = await dispatch(unreadable, 'app:info', undefined)
    expect(response).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(JSON.stringify(response)).not.toContain('s3cret-value-42')
  })

  it('opens only http(s) URLs externally', async () => {
    const opened: string[] = []
    const withShell = createHandlers({} as Core, {
      openExternal: async (url) => void opened.push(url),
    })
    expect(await dispatch(withShell, 'app:open-external', { url: 'file:///etc/passwd' })).toEqual({
      ok: true,
      value: { opened: false },
    })
    expect(
      await dispatch(withShell, 'app:open-external', { url: 'https://example.com/a' }),
    ).toEqual({ ok: true, value: { opened: true } })
    expect(opened).toEqual(['https://example.com/a'])
  })
})
