import { describe, expect, it, vi } from 'vitest'
import { createRedactor } from '../secrets/redactor'
import { PREVIEW_CHARS, ProtocolLog } from './protocol-log'

const request = (id: number, text = 'x') =>
  ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text } },
  }) as const

describe('ProtocolLog', () => {
  it('keeps the newest entries only, with increasing sequence numbers', () => {
    const log = new ProtocolLog({ max: 3, now: () => 0 })
    for (let id = 1; id <= 5; id++) log.out(request(id))
    expect(log.list().map((e) => [e.seq, e.id])).toEqual([
      [2, 3],
      [3, 4],
      [4, 5],
    ])
    expect(log.list(3).map((e) => e.seq)).toEqual([4])
  })

  it('measures a message in bytes of its JSON', () => {
    const log = new ProtocolLog({ max: 10, now: () => 0 })
    const message = request(1, 'é€')
    log.out(message)
    expect(log.list()[0]!.size).toBe(Buffer.byteLength(JSON.stringify(message)))
  })

  it('cuts large messages and returns the whole text while it is kept', () => {
    const log = new ProtocolLog({ max: 10, now: () => 0 })
    log.out(request(1, 'y'.repeat(PREVIEW_CHARS * 2)))
    const [entry] = log.list()
    expect(entry).toMatchObject({ truncated: true, text: expect.any(String) })
    expect(entry!.text).toHaveLength(PREVIEW_CHARS)
    expect(JSON.parse(log.entry(entry!.seq)!.full!)).toMatchObject({ id: 1 })
  })

  it('times a reply from its request and attaches the HTTP exchange to the request', () => {
    let now = 100
    const log = new ProtocolLog({ max: 10, now: () => now, redactor: createRedactor() })
    log.out(request(7))
    log.http({ id: 7, status: 200, headers: { 'X-API-Key': 'k-0123456789', 'x-user-id': 'bob' } })
    now = 142
    log.in({ jsonrpc: '2.0', id: 7, result: { content: [] } })
    const [sent, reply] = log.list()
    expect(sent).toMatchObject({
      httpStatus: 200,
      headers: { 'X-API-Key': '[redacted]', 'x-user-id': 'bob' },
    })
    expect(reply).toMatchObject({ kind: 'response', durationMs: 42 })
  })

  it('forgets when unanswered requests went out once they leave the ring', () => {
    // A server that never replies (timeouts, cancelled calls) must not grow the log for ever.
    let now = 0
    const log = new ProtocolLog({ max: 3, now: () => now })
    for (let id = 1; id <= 5; id++) log.out(request(id))
    now = 10
    log.in({ jsonrpc: '2.0', id: 1, result: {} })
    log.in({ jsonrpc: '2.0', id: 5, result: {} })
    const replies = log.list().filter((e) => e.direction === 'in')
    expect(replies.map((e) => [e.id, e.durationMs])).toEqual([
      [1, undefined],
      [5, 10],
    ])
  })

  it('forgets unanswered requests when cleared', () => {
    const log = new ProtocolLog({ max: 10, now: () => 0 })
    log.out(request(1))
    log.clear()
    log.in({ jsonrpc: '2.0', id: 1, result: {} })
    expect(log.list()[0]!.durationMs).toBeUndefined()
  })

  it('announces a request again once its HTTP status and headers arrive', () => {
    // The request is announced when sent; the HTTP exchange completes later.
    const announced: { seq: number; httpStatus?: number }[] = []
    const log = new ProtocolLog({
      max: 10,
      now: () => 0,
      onEntry: (entry) => announced.push({ seq: entry.seq, httpStatus: entry.httpStatus }),
    })
    log.out(request(3))
    log.http({ id: 3, status: 200, headers: { 'x-user-id': 'bob' } })
    expect(announced).toEqual([
      { seq: 0, httpStatus: undefined },
      { seq: 0, httpStatus: 200 },
    ])
  })

  it('redacts known secrets in messages and stderr lines', () => {
    const redactor = createRedactor()
    redactor.add('super-secret-token')
    const log = new ProtocolLog({ max: 10, now: () => 0, redactor })
    log.out(request(1, 'super-secret-token'))
    log.stderr('token is super-secret-token')
    expect(JSON.stringify(log.list())).not.toContain('super-secret-token')
  })

  it('walks a message for secrets only when its text could hold one', () => {
    const redactor = createRedactor()
    redactor.add('k-0123456789')
    const walks = vi.spyOn(redactor, 'redact')
    const log = new ProtocolLog({ max: 10, now: () => 0, redactor })
    const hits = { hits: Array.from({ length: 10 }, (_, n) => ({ id: n, text: 'vpn setup' })) }
    log.in({ jsonrpc: '2.0', id: 1, result: hits })
    expect(walks).not.toHaveBeenCalled()
    log.in({ jsonrpc: '2.0', id: 2, result: { note: 'key k-0123456789' } })
    log.in({ jsonrpc: '2.0', id: 3, result: { headers: { Cookie: 'session=abc' } } })
    log.in({ jsonrpc: '2.0', id: 4, result: { text: 'Authorization:\tBearer abcdefgh12345678' } })
    log.in({ jsonrpc: '2.0', id: 5, result: { [`api\u212Aey`]: 'short' } })
    expect(walks).toHaveBeenCalledTimes(4)
    const text = JSON.stringify(log.list())
    for (const secret of ['k-0123456789', 'session=abc', 'abcdefgh12345678', 'short']) {
      expect(text).not.toContain(secret)
    }
  })
})
