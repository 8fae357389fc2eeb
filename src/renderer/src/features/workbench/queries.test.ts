import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import { appendLog, LOG_KEEP, workbenchKeys } from './queries'

describe('appendLog: protocol events into the log a view holds', () => {
  const entry = (seq: number): ProtocolEntry => ({
    seq,
    at: seq,
    direction: 'in',
    kind: 'response',
    size: 2,
    text: '{}',
    truncated: false,
  })

  it('appends new entries to a log the panel holds, once each', () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(workbenchKeys.log('kb'), [entry(1), entry(2)])
    appendLog(queryClient, 'kb', [entry(2), entry(3)])
    const held = queryClient.getQueryData<ProtocolEntry[]>(workbenchKeys.log('kb'))
    expect(held?.map((e) => e.seq)).toEqual([1, 2, 3])
  })

  it('replaces an entry the core announces again with its HTTP status and headers', () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(workbenchKeys.log('kb'), [entry(1), entry(2)])
    const updated = { ...entry(1), httpStatus: 200, headers: { 'x-user-id': 'bob' } }
    appendLog(queryClient, 'kb', [updated])
    const held = queryClient.getQueryData<ProtocolEntry[]>(workbenchKeys.log('kb'))
    expect(held?.map((e) => [e.seq, e.httpStatus])).toEqual([
      [1, 200],
      [2, undefined],
    ])
  })

  it('keeps nothing for a log no view has read', () => {
    const queryClient = new QueryClient()
    appendLog(queryClient, 'kb', [entry(1)])
    expect(queryClient.getQueryData(workbenchKeys.log('kb'))).toBeUndefined()
  })

  it('holds at most as many entries as the core keeps', () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(workbenchKeys.log('kb'), [entry(0)])
    const burst = Array.from({ length: LOG_KEEP + 5 }, (_, i) => entry(i + 1))
    appendLog(queryClient, 'kb', burst)
    const held = queryClient.getQueryData<ProtocolEntry[]>(workbenchKeys.log('kb'))!
    expect(held).toHaveLength(LOG_KEEP)
    expect(held.at(-1)?.seq).toBe(LOG_KEEP + 5)
  })
})
