import { afterEach, describe, expect, it } from 'vitest'
import { startCore, type LiveCore } from '#test/support/core/live-core'

/** RAGbox-shaped keys: a known API key format, so the file scan takes them for credentials. */
const key = (digit: string) => `rbx_live_${digit.repeat(64)}`

const entry = (apiKey: string) => ({
  transport: 'http',
  url: 'http://127.0.0.1:9/api/mcp',
  headers: { 'X-API-Key': apiKey },
})

describe('credentials written in rag-mcp.json', () => {
  let live: LiveCore | undefined
  afterEach(async () => {
    await live?.close()
  })

  it('are blanked out of output from the start, and so are those a reload adds or changes', async () => {
    live = await startCore({ a: entry(key('1')) }, { connect: false })
    const { core } = live
    const leaks = (...values: string[]) =>
      values.filter((value) => core.redactor.redactText(`said ${value}`).includes(value))
    expect(leaks(key('1'))).toEqual([])
    await live.rewrite({ a: entry(key('1')), b: entry(key('2')) })
    await live.rewrite({ a: entry(key('3')), b: entry(key('2')) })
    expect(leaks(key('1'), key('2'), key('3'))).toEqual([])
  })
})
