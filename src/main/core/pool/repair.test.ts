import { describe, expect, it } from 'vitest'
import { repairEventStream } from './sse-repair'
import { MALFORMED_REPLY_CODE, repairMessage, repairText, type RepairOutcome } from './repair'

describe('repairMessage', () => {
  it('passes a well-formed reply through without fixes', () => {
    const outcome = repairMessage({ jsonrpc: '2.0', id: 1, result: { ok: true } })
    expect(outcome).toEqual({
      message: { jsonrpc: '2.0', id: 1, result: { ok: true } },
      fixes: [],
      id: 1,
    })
  })

  it('adds a missing "jsonrpc" and drops extra top-level keys', () => {
    const outcome = repairMessage({ id: 'a', result: { x: 1 }, meta: {}, timestamp: 1 })
    expect(outcome.message).toEqual({ jsonrpc: '2.0', id: 'a', result: { x: 1 } })
    expect(outcome.fixes).toEqual([
      'missing "jsonrpc": "2.0"',
      'extra top-level keys: meta, timestamp',
    ])
  })

  it('keeps unknown keys inside the result', () => {
    const result = { status: 'success', segments: [] }
    expect(repairMessage({ jsonrpc: '2.0', id: 1, result }).message).toMatchObject({ result })
  })

  it('normalises an error object with a string code', () => {
    const outcome = repairMessage({
      jsonrpc: '2.0',
      id: 2,
      error: { code: '-32000', message: 'Unauthorized' },
    })
    expect(outcome.message).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32000, message: 'Unauthorized' },
    })
    expect(outcome.fixes).toContain('malformed "error" object')
  })

  it('turns a reply whose result is not an object into an error for that id', () => {
    const outcome = repairMessage({ jsonrpc: '2.0', id: 3, result: null })
    expect(outcome.problem).toBe('"result" is null, not an object')
    expect(outcome.message).toMatchObject({ id: 3, error: { code: MALFORMED_REPLY_CODE } })
  })

  it('repairs requests and notifications from the server too', () => {
    expect(
      repairMessage({ method: 'notifications/message', params: { level: 'info' }, x: 1 }).message,
    ).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info' },
    })
  })

  it('reports what cannot be used at all', () => {
    expect(repairMessage('hello').problem).toMatch(/not a JSON-RPC object/)
    expect(repairMessage({ hello: 'world' }).problem).toMatch(/not a JSON-RPC message/)
    expect(repairMessage({ result: {} }).problem).toMatch(/without a usable "id"/)
  })
})

describe('repairText', () => {
  it('reports text that is not JSON', () => {
    expect(repairText('<html>').at(0)?.problem).toMatch(/not JSON/)
  })

  it('repairs each message of a batch', () => {
    const outcomes = repairText(
      JSON.stringify([
        { id: 1, result: {} },
        { id: 2, result: {} },
      ]),
    )
    expect(outcomes.map((o) => o.message)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ])
  })
})

describe('repairEventStream', () => {
  const run = async (
    text: string,
    chunkSize = 7,
  ): Promise<{ out: string; outcomes: RepairOutcome[] }> => {
    const bytes = new TextEncoder().encode(text)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += chunkSize)
          controller.enqueue(bytes.slice(i, i + chunkSize))
        controller.close()
      },
    })
    const outcomes: RepairOutcome[] = []
    const out = await new Response(repairEventStream(body, (o) => outcomes.push(o))).text()
    return { out, outcomes }
  }

  it('repairs message events split across chunks', async () => {
    const { out, outcomes } = await run(
      'id: 7\nevent: message\ndata: {"id":1,"result":{},"extra":1}\n\n',
    )
    expect(out).toBe('id: 7\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n')
    expect(outcomes[0]?.fixes).toHaveLength(2)
  })

  it('leaves other events and clean messages as they came', async () => {
    const text =
      'event: endpoint\ndata: /messages?sessionId=abc\n\n: keep-alive\n\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\r\n\r\n'
    const { out, outcomes } = await run(text)
    expect(out).toBe(
      'event: endpoint\ndata: /messages?sessionId=abc\n\n: keep-alive\n\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
    )
    expect(outcomes).toEqual([])
  })

  it('passes a chunk of whole, clean events on as the very bytes it came as', async () => {
    const chunk = new TextEncoder().encode('data: {"jsonrpc":"2.0","id":1,"result":{}}\r\n\r\n')
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk)
        controller.close()
      },
    })
    const reader = repairEventStream(body, () => {}).getReader()
    expect((await reader.read()).value).toBe(chunk)
  })

  it('repairs a chunk whose clean events come with one that needs repair', async () => {
    const { out } = await run(
      'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\ndata: {"id":2,"result":{}}\n\n',
      1000,
    )
    expect(out).toBe(
      'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\ndata: {"jsonrpc":"2.0","id":2,"result":{}}\n\n',
    )
  })

  it('passes a priming event (id, retry, empty data) through untouched, as no message', async () => {
    const { out, outcomes } = await run('id: event-2\nretry: 500\ndata: \n\n')
    expect(out).toBe('id: event-2\nretry: 500\ndata: \n\n')
    expect(outcomes).toEqual([])
  })
})
