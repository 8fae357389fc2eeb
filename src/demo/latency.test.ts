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

  it("counts the tool's own work within the latency, as a real backend's latency does", async () => {
    vi.useFakeTimers()
    setLatency(150)
    const slow = {
      'tools/call': async () => {
        await new Promise((resolve) => setTimeout(resolve, 40))
        return { content: [] }
      },
    }
    let answeredAt: number | undefined
    const started = Date.now()
    const reply = dispatch(message('tools/call'), slow, {}).then((r) => {
      answeredAt = Date.now() - started
      return r
    })
    await vi.advanceTimersByTimeAsync(149)
    expect(answeredAt).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(answeredAt).toBe(150)
    expect(await reply).toMatchObject({ id: 1, result: { content: [] } })
  })

  it('answers a tool slower than the latency when it is done, and a failure after the latency', async () => {
    vi.useFakeTimers()
    setLatency(50)
    const started = Date.now()
    const slow = {
      'tools/call': async () => {
        await new Promise((resolve) => setTimeout(resolve, 80))
        return { content: [] }
      },
    }
    let lateAt: number | undefined
    const late = dispatch(message('tools/call'), slow, {}).then((r) => {
      lateAt = Date.now() - started
      return r
    })
    await vi.advanceTimersByTimeAsync(80)
    expect(lateAt).toBe(80)
    expect(await late).toMatchObject({ id: 1 })
    const failing = {
      'tools/call': () => {
        throw new Error('index offline')
      },
    }
    let failedAt: number | undefined
    const failed = dispatch(message('tools/call'), failing, {}).then((r) => {
      failedAt = Date.now() - started
      return r
    })
    await vi.advanceTimersByTimeAsync(49)
    expect(failedAt).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(failedAt).toBe(130)
    expect(await failed).toMatchObject({
      id: 1,
      error: { message: 'Internal error: index offline' },
    })
  })
})
