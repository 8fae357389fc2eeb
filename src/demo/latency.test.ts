import { afterEach, describe, expect, it, vi } from 'vitest'
import { dispatch } from './http/jsonrpc'
import { setLatency } from './latency'

const methods = { 'tools/call': () => ({ content: [] }), 'tools/list': () => ({ tools: [] }) }
const message = (method: string) => ({ jsonrpc: '2.0' as const, id: 1, method, params: {} })

describe('--latency', () => {
  afterEach(() => {
    setLatency(0)
    vi.useRealTimers()
  })

  it('holds a tool call back for the configured latency', async () => {
    vi.useFakeTimers()
    setLatency(150)
    let answered = false
    const reply = dispatch(message('tools/call'), methods, {}).then((r) => {
      answered = true
      return r
    })
    await vi.advanceTimersByTimeAsync(149)
    expect(answered).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await reply).toMatchObject({ id: 1, result: { content: [] } })
  })

  it('answers everything else, and tool calls without a latency, at once', async () => {
    vi.useFakeTimers()
    setLatency(150)
    expect(await dispatch(message('tools/list'), methods, {})).toMatchObject({ id: 1 })
    setLatency(0)
    expect(await dispatch(message('tools/call'), methods, {})).toMatchObject({ id: 1 })
  })

  it('holds a tool call back for the latency its server instance was given', async () => {
    vi.useFakeTimers()
    let answered = false
    const reply = dispatch(message('tools/call'), methods, {}, 200).then((r) => {
      answered = true
      return r
    })
    await vi.advanceTimersByTimeAsync(199)
    expect(answered).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await reply).toMatchObject({ id: 1 })
  })
})
