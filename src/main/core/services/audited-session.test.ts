import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '#shared/model/operations'
import { ragToolsV1Adapter } from '../dialects/rag-tools-v1'
import {
  RecordingSession,
  alice,
  asUser,
  rpcError,
  textResult,
} from '#test/support/dialects/recording-session'
import { AuditedSession, countItems } from './audited-session'

function audited(session: RecordingSession, sources: string[] = ['handbook']) {
  const lines: AuditEntry[] = []
  const wrapped = new AuditedSession(
    session,
    { record: (entry) => lines.push(entry) },
    { user: alice, operation: 'search', sources },
  )
  return { wrapped, lines }
}

const hits = (n: number) => ({
  structuredContent: {
    results: {
      hits: Array.from({ length: n }, (_, i) => ({
        id: `h${i}`,
        resourceId: 'handbook',
        score: 1 - i / 10,
        title: `Hit ${i}`,
      })),
    },
  },
})

describe('AuditedSession', () => {
  it('writes one line per call once the operation settles, with the exact count', async () => {
    const session = new RecordingSession({ tools: { rag_get_raw_results: hits(3) } })
    const { wrapped, lines } = audited(session)
    const output = await ragToolsV1Adapter.search(
      wrapped,
      { query: 'pto', phrases: [], topK: 5, sources: ['handbook'] },
      asUser(),
    )
    expect(lines).toEqual([])
    await wrapped.settle({ resultCount: output.hits.length })
    expect(lines).toEqual([
      expect.objectContaining({
        user: 'alice@example.com',
        server: 'test',
        operation: 'search',
        tool: 'rag_get_raw_results',
        sources: ['handbook'],
        outcome: 'ok',
        resultCount: 3,
      }),
    ])
    expect(lines[0]).not.toHaveProperty('errorCode')
  })

  it('marks the last call failed with the code the adapter read from the reply', async () => {
    const refusal = { structuredContent: { results: { error: 'unauthorized_user' } } }
    const session = new RecordingSession({ tools: { rag_get_raw_results: refusal } })
    const { wrapped, lines } = audited(session)
    const failure = await ragToolsV1Adapter
      .search(wrapped, { query: 'pto', phrases: [], topK: 5, sources: ['handbook'] }, asUser())
      .catch((error: unknown) => error)
    await wrapped.settle({ error: failure })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ outcome: 'error', errorCode: 'unauthorized' })
  })

  it('records a call that failed on the wire with its own code', async () => {
    const session = new RecordingSession({
      tools: { rag_get_raw_results: rpcError('test', -32603, 'backend down') },
    })
    const { wrapped, lines } = audited(session)
    const failure = await wrapped
      .callTool('rag_get_raw_results', {}, asUser())
      .catch((error: unknown) => error)
    await wrapped.settle({ error: failure })
    expect(lines[0]).toMatchObject({ outcome: 'error', errorCode: 'server_error' })
    expect(lines[0]).not.toHaveProperty('resultCount')
  })

  it('keeps arguments, queries and replies out of the lines', async () => {
    const session = new RecordingSession({ tools: { echo: textResult('the reply text') } })
    const { wrapped, lines } = audited(session, [])
    await wrapped.callTool(
      'echo',
      { query: 'very private question', token: 'tok_123456789' },
      asUser(),
    )
    await wrapped.settle({ resultCount: 1 })
    const text = JSON.stringify(lines)
    expect(text).not.toMatch(/very private question|tok_123456789|the reply text/)
  })

  it('names the sources a call asked for itself, and counts each call of a multi-call operation', async () => {
    const session = new RecordingSession({
      tools: {
        rag_get_raw_results: (args: Record<string, unknown>) =>
          hits((args.sources as string[]).length + 1),
      },
    })
    const { wrapped, lines } = audited(session, ['handbook', 'legal'])
    await wrapped.callTool('rag_get_raw_results', { sources: ['handbook'] }, asUser())
    await wrapped.callTool('rag_get_raw_results', { sources: ['legal', 'sales'] }, asUser())
    await wrapped.settle({ resultCount: 99 })
    expect(lines.map((l) => [l.sources, l.resultCount])).toEqual([
      [['handbook'], 2],
      [['legal', 'sales'], 3],
    ])
  })

  it('waits for a call still in flight before writing', async () => {
    let release: (value: unknown) => void = () => undefined
    const session = new RecordingSession({
      tools: { slow: () => new Promise((resolve) => (release = resolve)) },
    })
    const { wrapped, lines } = audited(session, [])
    const call = wrapped.callTool('slow', {}, asUser())
    const settled = wrapped.settle({ error: new Error('cancelled by the user') })
    await Promise.resolve()
    expect(lines).toEqual([])
    release(textResult('late'))
    await call
    await settled
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ tool: 'slow', outcome: 'error', errorCode: 'internal' })
  })

  it('still writes a call that starts after the operation settled', async () => {
    const session = new RecordingSession({ tools: { late: textResult('[1,2]') } })
    const { wrapped, lines } = audited(session, [])
    await wrapped.settle({ error: new Error('timed out') })
    expect(lines).toHaveLength(1)
    await wrapped.callTool('late', {}, asUser())
    expect(lines[1]).toMatchObject({ tool: 'late', outcome: 'ok', resultCount: 2 })
  })

  it('writes nothing for an operation that made no call and did not fail', async () => {
    const { wrapped, lines } = audited(new RecordingSession(), [])
    await wrapped.settle({})
    expect(lines).toEqual([])
  })
})

describe('countItems', () => {
  it('finds the list wherever a family puts it', () => {
    expect(countItems({ status: 'success', segments: [{}, {}] })).toBe(2)
    expect(countItems(hits(4))).toBe(4)
    expect(countItems(textResult('[{"id":1},{"id":2},{"id":3}]'))).toBe(3)
    expect(countItems(textResult('{"answer":"x","sources":[{}]}'))).toBe(1)
    expect(countItems({ resources: [{}] })).toBe(1)
    expect(countItems({ has_access: true })).toBeUndefined()
  })
})
