import { afterEach, describe, expect, it, vi } from 'vitest'
import { dispatch } from './http/jsonrpc'
import { setLatency } from './latency'

const methods = { 'tools/call': () => ({ content: [] }), 'tools/list': () => ({ tools: [] }) }
const message = (method: string) => ({ jsonrpc: '2.0' as const, id: 1, method, params: {} })

/** A tool whose own work takes `ms` (of the fake clock). */
const working = (ms: number) => ({
  'tools/call': async () => {
    await new Promise((resolve) => setTimeout(resolve, ms))
    return { content: [] }
  },
})

/** Runs a tool call; `at()` says when it answered, in ms after `started` (undefined: not yet). */
function timedCall(tools: Parameters<typeof dispatch>[1], started: number) {
  let answeredAt: number | undefined
  const reply = dispatch(message('tools/call'), tools, {}).then((r) => {
    answeredAt = Date.now() - started
    return r
  })
  return { reply, at: () => answeredAt }
}

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
    const call = timedCall(working(40), Date.now())
    await vi.advanceTimersByTimeAsync(149)
    expect(call.at()).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(call.at()).toBe(150)
    expect(await call.reply).toMatchObject({ id: 1, result: { content: [] } })
  })

  it('answers a tool slower than the latency when it is done, and a failure after the latency', async () => {
    vi.useFakeTimers()
    setLatency(50)
    const started = Date.now()
    const late = timedCall(working(80), started)
    await vi.advanceTimersByTimeAsync(80)
    expect(late.at()).toBe(80)
    expect(await late.reply).toMatchObject({ id: 1 })
    const failing = {
      'tools/call': () => {
        throw new Error('index offline')
      },
    }
    const failed = timedCall(failing, started)
    await vi.advanceTimersByTimeAsync(49)
    expect(failed.at()).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(failed.at()).toBe(130)
    expect(await failed.reply).toMatchObject({
      id: 1,
      error: { message: 'Internal error: index offline' },
    })
  })
})
