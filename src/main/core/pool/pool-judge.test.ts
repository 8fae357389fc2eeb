import { describe, expect, it } from 'vitest'
import type { ErrorInfo } from '#shared/errors'
import { stdioFixture, textOf, useTestScope } from '#test/support/pool/helpers'

const testPool = useTestScope().pool

/** What a dialect's judge returns for a reply that is nothing but a refusal. */
const REFUSAL: ErrorInfo = {
  code: 'unauthorized',
  origin: 'server',
  server: 'kb',
  message: 'server kb reported unauthorized_user; check the profile',
}

async function kb() {
  const { pool } = testPool()
  await pool.apply([stdioFixture('kb', 'stdio-server.mjs')])
  const session = await pool.session('kb')
  const operation = () => pool.health('kb')[0]!.operations.find((op) => op.operation === 'call')
  return { session, operation }
}

describe("a call's judge", () => {
  it('records a reply it finds refused as a failed call with its code, once', async () => {
    const { session, operation } = await kb()
    const seen: unknown[] = []
    const judge = (result: unknown): ErrorInfo => {
      seen.push(result)
      return REFUSAL
    }
    const result = await session.callTool('echo', { text: 'no' }, { operation: 'call', judge })
    expect(textOf(result)).toBe('no')
    expect(seen).toEqual([result])
    expect(operation()).toMatchObject({
      calls: 1,
      errors: { unauthorized: 1 },
      errorRate: 1,
      lastError: REFUSAL,
    })
  })

  it('leaves a reply it finds nothing wrong with a success', async () => {
    const { session, operation } = await kb()
    await session.callTool('echo', { text: 'yes' }, { operation: 'call', judge: () => undefined })
    expect(operation()).toMatchObject({ calls: 1, errors: {}, errorRate: 0 })
  })

  it('gives no verdict when it throws', async () => {
    const { session, operation } = await kb()
    const judge = (): never => {
      throw new Error('parser bug')
    }
    const result = await session.callTool('echo', { text: 'x' }, { operation: 'call', judge })
    expect(textOf(result)).toBe('x')
    expect(operation()).toMatchObject({ calls: 1, errors: {} })
  })

  it('is not asked about an isError result, which stays a tool_error', async () => {
    const { session, operation } = await kb()
    let asked = false
    const judge = (): ErrorInfo => {
      asked = true
      return REFUSAL
    }
    await session.callTool('fail', {}, { operation: 'call', judge })
    expect(asked).toBe(false)
    expect(operation()).toMatchObject({ calls: 1, errors: { tool_error: 1 } })
  })
})
